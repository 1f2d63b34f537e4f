// The Sessions page over real HTTP: a person's live sessions, "sign out this session", "sign out everywhere else".
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createTestMerchant, startOwo, type Owo } from "../testing/harness";
import { trpcFailure } from "../testing/initiation";
import { userClient } from "../testing/sessions";
import { deviceName } from "./signed-in-sessions";

let owo: Owo;
before(async () => {
  owo = await startOwo({ OWO_REVOCATION_SECONDS: "0" });
});
after(() => owo.stop());

test("a person lists their sessions, ends one, then all but their own; nobody else can end them", async () => {
  const m = await createTestMerchant("Sessions Shop");
  const laptop = await userClient(owo, m.userId);
  const phone = await userClient(owo, m.userId);
  const tablet = await userClient(owo, m.userId);
  const listed = await laptop.account.sessions.list.query();
  assert.equal(listed.length, 3);
  assert.equal(listed.filter((s) => s.current).length, 1, "the asking session is marked");
  const mine = listed.find((s) => s.current);
  assert.ok(mine);
  assert.equal(mine.ip, "127.0.0.1");
  assert.ok(Date.parse(mine.firstSeen) <= Date.parse(mine.lastSeen));

  const phoneId = (await phone.account.sessions.list.query()).find((s) => s.current)?.id ?? "";
  const stranger = await userClient(owo, (await createTestMerchant("Stranger")).userId);
  assert.equal((await trpcFailure(stranger.account.sessions.end.mutate({ id: phoneId }))).code, "NOT_FOUND");
  assert.deepEqual(await laptop.account.sessions.end.mutate({ id: phoneId }), { ended: phoneId });
  assert.equal((await trpcFailure(phone.team.members.query())).code, "UNAUTHORIZED", "the phone is signed out at once");

  assert.deepEqual(await laptop.account.sessions.endOthers.mutate(), { ended: 1 });
  assert.equal((await trpcFailure(tablet.team.members.query())).code, "UNAUTHORIZED");
  assert.deepEqual(
    (await laptop.account.sessions.list.query()).map((s) => s.current),
    [true],
    "only this one is left",
  );

  const audit = await laptop.team.audit.query({});
  assert.ok(audit.entries.some((e) => e.action === "account.endSession"));
  assert.ok(audit.entries.some((e) => e.action === "account.endOtherSessions"));
});

test("devices are named from the browser's description", async () => {
  assert.equal(
    deviceName("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"),
    "Chrome on Linux",
  );
  assert.equal(
    deviceName("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"),
    "Safari on iOS",
  );
  assert.equal(deviceName(""), "Unknown device");
});
