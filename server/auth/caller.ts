// The shapes of a caller, apart from how one is found (callers.ts), so permissions can name them without a circle.
import type { Mode, Role } from "../../db/schema";
import type { MachineCaller } from "./access-tokens";

export type UserCaller = {
  kind: "user";
  userId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  role: Role;
  mode: Mode;
  emailVerified: boolean;
  /** Live mode exists for this merchant once it has connected a bank-side provider. */
  liveAvailable: boolean;
  teamRequiresTwoFactor: boolean;
  /** The team requires two-factor sign-in and this person has not set it up: only their own account is open to them. */
  mustEnrolTwoFactor: boolean;
  /** The dashboard session this request came with (null for callers built in-process without one). */
  sessionId: string | null;
};

export type Caller = MachineCaller | UserCaller;
