import { redirect } from "next/navigation";
import { pageCaller } from "@/server/trpc/page-caller";

export default async function Home() {
  const { caller } = await pageCaller();
  redirect(caller ? "/dashboard" : "/signin");
}
