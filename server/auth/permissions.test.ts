// can(caller, action): the one answer the procedures refuse by and the pages hide by.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Role } from "../../db/schema";
import { can, needsFreshSecondFactor, type Action } from "./permissions";

const person = (role: Role, emailVerified = true) => ({ kind: "user" as const, role, emailVerified });
const machine = { kind: "machine" as const };

/** Who may, per action: the four roles in order owner, admin, developer, viewer, then an API token. */
const EXPECTED: Record<Action, [boolean, boolean, boolean, boolean, boolean]> = {
  read: [true, true, true, true, true],
  change: [true, true, true, false, true],
  "payments.moneyBack": [true, true, false, false, true],
  account: [true, true, true, true, false],
  "team.read": [true, true, true, true, false],
  "team.manage": [true, true, false, false, false],
  "team.changeAccess": [true, true, false, false, false],
  "payments.export": [true, true, true, true, false],
  "settlements.export": [true, true, true, true, false],
  "team.invite": [true, true, false, false, false],
  "team.grantOwner": [true, false, false, false, false],
  "mail.read": [true, false, false, false, false],
  "team.requireTwoFactor": [true, false, false, false, false],
  "mode.live": [true, true, true, true, true],
  "providers.manage": [true, true, false, false, false],
  "business.profile": [true, true, false, false, false],
  "reconciliation.manage": [true, true, false, false, true],
  "secrets.roll": [true, true, true, false, true],
  "payments.refund": [true, true, false, false, true],
  "providers.connect": [true, true, false, false, false],
};

test("each role and an API token may do exactly what the table says", () => {
  for (const [action, expected] of Object.entries(EXPECTED) as [Action, boolean[]][]) {
    const got = [...(["owner", "admin", "developer", "viewer"] as const).map((r) => can(person(r), action)), can(machine, action)];
    assert.deepEqual(got, expected, action);
  }
});

test("nobody signed in may do anything, and an unconfirmed address may not invite or go live", () => {
  for (const action of Object.keys(EXPECTED) as Action[]) assert.equal(can(null, action), false, action);
  assert.equal(can(person("owner", false), "team.invite"), false);
  assert.equal(can(person("owner", false), "mode.live"), false);
  assert.equal(can(person("owner", false), "change"), true, "confirming the address gates only what it says");
});

test("a person whose team requires two factors and who has none may reach only their own account", () => {
  const unenrolled = { ...person("owner"), mustEnrolTwoFactor: true };
  for (const action of Object.keys(EXPECTED) as Action[]) assert.equal(can(unenrolled, action), action === "account", action);
});

test("every action that changes who may do what, rolls a secret, pays money back or connects a provider asks a person with two factors for a fresh code; reading does not", () => {
  const fresh = (Object.keys(EXPECTED) as Action[]).filter(needsFreshSecondFactor).sort();
  assert.deepEqual(fresh, [
    "payments.refund",
    "providers.connect",
    "secrets.roll",
    "team.changeAccess",
    "team.invite",
    "team.requireTwoFactor",
  ]);
});
