// Who may do what: one table, read by the tRPC procedures (refusing) and by the pages (hiding what would be refused).
import type { Role } from "../../db/schema";
import { ApiError } from "../api-error";
import type { Caller } from "./caller";

/**
 * - `read`: see payments, links, keys, endpoints, the overview.
 * - `change`: create payments and links, roll keys and secrets, manage endpoints, drive the sandbox.
 * - `payments.moneyBack`: cancel a payment or refund one (API.md: API tokens, or a dashboard owner or admin).
 * - `account`: a signed-in person's own things (their teams, sessions, two-factor sign-in); never a machine.
 * - `team.read`: see the team's members; never a machine.
 * - `team.manage`: see the team's invites and read the audit log.
 * - `team.changeAccess`: change roles, remove members, withdraw invites.
 * - `team.invite`: invite people (owners and admins whose own e-mail address is confirmed).
 * - `team.requireTwoFactor`: require two-factor sign-in of everyone on the team, or stop requiring it.
 * - `payments.export`: download the payments list as CSV (customers' names, e-mails and phones).
 * - `settlements.export`: download settlements, their lines and the reconciliation report as CSV (people only, as
 *   the payments export).
 * - `mode.live`: act in live mode (anyone whose e-mail address is confirmed; live mode needs a live provider too).
 * - `team.grantOwner`: make someone an owner or change an owner's place.
 * - `mail.read`: read the mail this Owo kept in its outbox (no SMTP configured).
 * - `providers.manage`: connect, test and disconnect bank-side providers, create live keys (owners and admins whose
 *   own e-mail address is confirmed).
 * - `business.profile`: change the business's name, logo and support contact, which its customers see on every checkout
 *   (owners and admins: it is how customers recognise who they pay).
 * - `reconciliation.manage`: resolve reconciliation exceptions and import bank statements (API.md: API tokens, or a
 *   dashboard owner or admin): they close findings and can book write-offs.
 * - `secrets.roll`: roll the secret key or the webhook signing secret (as `change`, with a fresh second factor).
 * - `payments.refund`: refund a payment or send a refund to the customer's account (as `payments.moneyBack`, with a
 *   fresh second factor).
 * - `providers.connect`: connect or disconnect a provider, create live keys (as `providers.manage`, with a fresh
 *   second factor).
 */
export type Action =
  | "read"
  | "change"
  | "payments.moneyBack"
  | "account"
  | "team.read"
  | "team.manage"
  | "team.changeAccess"
  | "payments.export"
  | "settlements.export"
  | "team.invite"
  | "team.grantOwner"
  | "mail.read"
  | "mode.live"
  | "team.requireTwoFactor"
  | "providers.manage"
  | "business.profile"
  | "reconciliation.manage"
  | "secrets.roll"
  | "payments.refund"
  | "providers.connect";

const ALL: readonly Role[] = ["owner", "admin", "developer", "viewer"];
const STAFF: readonly Role[] = ["owner", "admin", "developer"];

/**
 * Machines (API keys) act with developer rights, and only on what an integration does. `verified`: a person must
 * have confirmed their e-mail address first (issue 17: an unverified person may sign in, but not invite, connect a
 * provider or go live). `fresh`: a person who uses two factors must have typed a code on this session within 15
 * minutes: every action that changes who may do what, so a stale or stolen session cannot add or remove owners.
 */
type Rule = { roles: readonly Role[]; machines: boolean; verified?: true; fresh?: true };
const RULES = {
  read: { roles: ALL, machines: true },
  change: { roles: STAFF, machines: true },
  "payments.moneyBack": { roles: ["owner", "admin"], machines: true },
  account: { roles: ALL, machines: false },
  "team.read": { roles: ALL, machines: false },
  "team.manage": { roles: ["owner", "admin"], machines: false },
  "team.changeAccess": { roles: ["owner", "admin"], machines: false, fresh: true },
  "team.invite": { roles: ["owner", "admin"], machines: false, verified: true, fresh: true },
  "team.grantOwner": { roles: ["owner"], machines: false },
  "mail.read": { roles: ["owner"], machines: false },
  "team.requireTwoFactor": { roles: ["owner"], machines: false, fresh: true },
  "payments.export": { roles: ALL, machines: false },
  "settlements.export": { roles: ALL, machines: false },
  "mode.live": { roles: ALL, machines: true, verified: true },
  "providers.manage": { roles: ["owner", "admin"], machines: false, verified: true },
  "business.profile": { roles: ["owner", "admin"], machines: false },
  "reconciliation.manage": { roles: ["owner", "admin"], machines: true },
  "secrets.roll": { roles: STAFF, machines: true, fresh: true },
  "payments.refund": { roles: ["owner", "admin"], machines: true, fresh: true },
  "providers.connect": { roles: ["owner", "admin"], machines: false, verified: true, fresh: true },
} as const satisfies Record<Action, Rule>;

/** The actions the table keeps from machines: a procedure for one of them knows its caller is a person. */
export type PeopleOnlyAction = { [A in Action]: (typeof RULES)[A]["machines"] extends false ? A : never }[Action];

/** A caller as far as permissions go: a machine, or a person with a role on the current merchant. */
export type Permitted = Pick<Caller, "kind"> & { role?: Role; emailVerified?: boolean; mustEnrolTwoFactor?: boolean };

export function roleOf(caller: Caller): Role {
  return caller.kind === "machine" ? "developer" : caller.role;
}

export function can(caller: Permitted | null, action: Action): boolean {
  if (!caller) return false;
  const rule: Rule = RULES[action];
  if (caller.kind === "machine") return rule.machines;
  // A team that requires two factors opens nothing but the person's own account until they have set it up.
  if (caller.mustEnrolTwoFactor && action !== "account") return false;
  if (rule.verified && caller.emailVerified !== true) return false;
  return caller.role !== undefined && rule.roles.includes(caller.role);
}

/** Whether a person must have proved a second factor within 15 minutes before `action` (machines never are). */
export function needsFreshSecondFactor(action: Action): boolean {
  const rule: Rule = RULES[action];
  return rule.fresh === true;
}

/** Refuses (403 S3) what `can` says no to, naming what the action needs. */
export function assertCan(caller: Caller, action: Action): void {
  if (can(caller, action)) return;
  const rule: Rule = RULES[action];
  if (caller.kind === "machine" && !rule.machines) throw new ApiError("S3", "Only signed-in users may do this");
  if (caller.kind === "user" && caller.mustEnrolTwoFactor) {
    throw new ApiError("S3", `${caller.merchantName} requires two-factor sign-in: set it up on the Account page first`);
  }
  if (caller.kind === "user" && rule.verified && !caller.emailVerified && rule.roles.includes(caller.role)) {
    throw new ApiError("S3", "Confirm your e-mail address first: open the link we mailed you, or send it again from Account");
  }
  throw new ApiError("S3", `Your role (${roleOf(caller)}) may not do this; it needs ${rule.roles.join(" or ")}`);
}
