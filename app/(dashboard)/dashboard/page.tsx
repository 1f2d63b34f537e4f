import type { Metadata } from "next";
import { pageCaller } from "@/server/trpc/page-caller";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { caller } = await pageCaller();
  return (
    <section>
      <h1>Overview</h1>
      <p className="muted">Welcome to {caller?.merchantName}. Payments you initiate appear here.</p>
    </section>
  );
}
