// Dashboard sessions end when they should, on every door: sign-out, password reset, revocation by another instance,
// the absolute lifetime that renewal cannot pass, and removal from a merchant.
import assert from "node:assert/strict";
import Database from "better-sqlite3";
import { join } from "node:path";
import { encode } from "next-auth/jwt";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo, type TestMerchant } from "../testing/harness";
import { settings } from "../settings";
import { resetPassword } from "../users/users";
import { onPostgres } from "../../db/throwaway-postgres";
import { moveClock } from "../clock";
import { createInvite, joinByInvite } from "../team/invites";
import { removeMember } from "../team/members";

const MAX_SECONDS = 120;
const REVOCATION_SECONDS = 1;
let owo: Owo;
before(async () => {
  owo = await startOwo({ OWO_SESSION_MAX_SECONDS: String(MAX_SECONDS), OWO_REVOCATION_SECONDS: String(REVOCATION_SECONDS) });
});
after(() => owo.stop());

const sessions = () => import("./sessions");

/** The cookie next-auth sets after sign-in (and re-issues on every renewal): a JWT naming the user and the session. */
async function cookieFor(m: TestMerchant, claims: Record<string, unknown>): Promise<string> {
  const token = await encode({ token: { sub: m.userId, email: m.email, ...claims }, secret: settings().authSecret, maxAge: 12 * 3600 });
  return `next-auth.session-token=${token}`;
}

async function signIn(m: TestMerchant): Promise<{ sid: string; cookie: string }> {
  const { id } = await (await sessions()).startSession(m.userId, { ip: "198.51.100.7", userAgent: "Test browser" });
  return { sid: id, cookie: await cookieFor(m, { sid: id }) };
}

/** The dashboard's own call: the team list, with the session cookie. */
async function members(cookie: string): Promise<number> {
  return (await fetch(`${owo.url}/api/trpc/team.members`, { headers: { cookie } })).status;
}

test("a session cookie works until sign-out ends that session, then never again", async () => {
  const m = await createTestMerchant();
  const mine = await signIn(m);
  const other = await signIn(m);
  assert.equal(await members(mine.cookie), 200);
  await (await sessions()).endSession(mine.sid, "signed-out");
  assert.equal(await members(mine.cookie), 401, "the saved cookie is dead at once");
  assert.equal(await members(other.cookie), 200, "the other device stays signed in");
});

test("a cookie with no session in it (as every cookie was before sessions were kept) is refused", async () => {
  const m = await createTestMerchant();
  assert.equal(await members(await cookieFor(m, {})), 401);
  assert.equal(await members(await cookieFor(m, { sid: "ses_forged" })), 401);
  const theirs = await signIn(await createTestMerchant());
  assert.equal(await members(await cookieFor(m, { sid: theirs.sid })), 401, "another person's session id");
});

test("a password reset ends every session of that person", async () => {
  const m = await createTestMerchant();
  const a = await signIn(m);
  const b = await signIn(m);
  await resetPassword(m.email, "a brand new passphrase");
  assert.equal(await members(a.cookie), 401);
  assert.equal(await members(b.cookie), 401);
  assert.equal(await members((await signIn(m)).cookie), 200, "signing in again works");
});

test("a session ended by another instance dies here within OWO_REVOCATION_SECONDS", async () => {
  const m = await createTestMerchant();
  const s = await signIn(m);
  assert.equal(await members(s.cookie), 200);
  // Another instance: its own connection to the same database, ending the row behind this process's back.
  if (process.env.OWO_TEST_POSTGRES_URL) {
    await onPostgres(owo.databaseUrl, (elsewhere) =>
      elsewhere.query("update sessions set ended_at = $1, ended_reason = 'revoked' where id = $2", [Date.now(), s.sid]),
    );
  } else {
    const elsewhere = new Database(join(owo.dataDir, "owo.db"));
    elsewhere.prepare("update sessions set ended_at = ?, ended_reason = 'revoked' where id = ?").run(Date.now(), s.sid);
    elsewhere.close();
  }
  moveClock(REVOCATION_SECONDS * 1000 + 100);
  assert.equal(await members(s.cookie), 401);
});

test("renewal cannot carry a session past OWO_SESSION_MAX_SECONDS", async () => {
  const m = await createTestMerchant();
  const s = await signIn(m);
  moveClock((MAX_SECONDS - 5) * 1000);
  // next-auth renews by re-issuing the cookie with a fresh expiry: the same session id in a new JWT.
  assert.equal(await members(await cookieFor(m, { sid: s.sid })), 200);
  moveClock(10_000);
  assert.equal(await members(await cookieFor(m, { sid: s.sid })), 401);
  moveClock(-MAX_SECONDS * 1000 - 5000);
});

test("the Sessions page's list: live sessions with device and IP; one revoked, or all", async () => {
  const { listSessions, revokeSession, revokeAllSessions } = await sessions();
  const m = await createTestMerchant();
  const a = await signIn(m);
  const b = await signIn(m);
  const c = await signIn(m);
  assert.deepEqual(new Set((await listSessions(m.userId)).map((s) => s.id)), new Set([a.sid, b.sid, c.sid]));
  assert.equal((await listSessions(m.userId))[0]?.userAgent, "Test browser");
  assert.equal((await listSessions(m.userId))[0]?.ip, "198.51.100.7");
  const stranger = await createTestMerchant();
  assert.equal(await revokeSession(stranger.userId, a.sid), false, "only one's own sessions");
  assert.equal(await revokeSession(m.userId, a.sid), true);
  assert.equal(await members(a.cookie), 401);
  assert.equal(await revokeAllSessions(m.userId, { keep: c.sid }), 1);
  assert.equal(await members(b.cookie), 401);
  assert.equal(await members(c.cookie), 200);
  assert.deepEqual(
    (await listSessions(m.userId)).map((s) => s.id),
    [c.sid],
  );
});

test("removal from a merchant ends access to it at once, session or not", async () => {
  const owner = await createTestMerchant();
  const actor = { userId: owner.userId, role: "owner" as const };
  const invite = await createInvite(owner.merchantId, actor, { role: "developer" });
  const token = new URL(invite.url).searchParams.get("invite") ?? "";
  const joined = await joinByInvite({ name: "Temi", email: `temi${Date.now()}@example.com`, password: "a long passphrase", invite: token });
  const temi = { ...owner, userId: joined.userId } as TestMerchant;
  const s = await signIn(temi);
  assert.equal(await members(s.cookie), 200);
  await removeMember(owner.merchantId, actor, joined.userId);
  assert.notEqual(await members(s.cookie), 200);
});
