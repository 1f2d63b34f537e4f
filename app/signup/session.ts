// Who is signed in on the sign-up page, even with no team at all (the page caller needs a membership).
import { cookies } from "next/headers";
import { sessionUserId } from "@/server/auth/callers";

export async function signedInUserId(): Promise<string | null> {
  const jar = await cookies();
  return sessionUserId(Object.fromEntries(jar.getAll().map((c) => [c.name, c.value])));
}
