import type { Metadata } from "next";
import { SessionsList } from "./sessions-list";

export const metadata: Metadata = { title: "Sessions" };

export default function SessionsPage() {
  return (
    <section>
      <h1>Sessions</h1>
      <p className="muted">
        Every browser signed in to your account. Sign out any you do not recognise, then reset your password; a session ends everywhere
        within seconds.
      </p>
      <div className="card">
        <SessionsList />
      </div>
    </section>
  );
}
