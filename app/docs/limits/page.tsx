import type { Metadata } from "next";
import { displayNaira } from "@/server/money";
import { AMOUNT_LIMITS, PAYMENT_TYPES } from "@/server/payments/initiate-schema";
import styles from "../docs.module.css";
import { SettingTable } from "../setting-table";

export const metadata: Metadata = { title: "Limits and versions" };

const RATE_LIMITS = [
  ["Per merchant and mode, on every call made with its token (REST and tRPC)", "OWO_RATE_LIMIT_RPS sustained, OWO_RATE_LIMIT_BURST burst", "50 per second, bursts of 100"],
  ["Per client IP: token exchange, sign-in, sign-up, the public pay and checkout pages, every non-GET page request", "OWO_IP_RATE_LIMIT_PER_MIN", "60 per minute"],
  ["Open connections per client IP (loopback exempt)", "OWO_MAX_CONNECTIONS_PER_IP", "256"],
  ["Per provider account and per client IP: provider notices at the notice doors (the sandbox bank's included), burst 100", "OWO_NOTICE_RATE_LIMIT_RPS", "10 per second (0: off)"],
] as const;

const LIFETIMES = [
  ["Access token", "OWO_TOKEN_TTL_SECONDS", "24 hours"],
  ["USSD dial code", "OWO_USSD_TTL_SECONDS", "10 minutes"],
  ["Account opened for a TRANSFER", "OWO_TRANSFER_TTL_SECONDS", "30 minutes"],
  ["Dashboard session, however often it is renewed", "OWO_SESSION_MAX_SECONDS", "12 hours"],
  ["How soon every instance sees an ended session or a rolled secret", "OWO_REVOCATION_SECONDS", "2 seconds"],
] as const;

export default function LimitsPage() {
  return (
    <>
      <h1>Limits and versions</h1>
      <p className={styles.lede}>The numbers below are the defaults; the operator of an Owo may set others.</p>

      <h2>Rate limits</h2>
      <SettingTable what="what is limited" rows={RATE_LIMITS} />
      <p>
        Limited responses carry <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>.
        Past the limit Owo answers 429 <code>S429</code> with <code>Retry-After</code> in whole seconds (at least 1): wait that long, then
        retry. The <a href="/docs/client">typed client</a> keeps one token for all its calls, so it does not spend the per-IP limit on
        token exchanges.
      </p>
      <p>
        An Owo with several instances on <a href="/docs/postgres">PostgreSQL</a> counts each limit once for all of them: requests spread
        over three instances share one budget. One process on SQLite counts in its own memory.
      </p>

      <p>
        The per-IP limit is decided on the path as the router sees it: percent-decoded, with <code>/./</code> and{" "}
        <code>/../</code> resolved, so <code>/api/auth/callback/%63redentials</code> counts as{" "}
        <code>/api/auth/callback/credentials</code>. A client must send its request headers within 10 seconds and the whole
        request within 30 (408 after that); an idle kept-alive connection is closed after 65 seconds.
      </p>

      <h2>Sign-in and passwords</h2>
      <ul>
        <li>
          After 5 failed sign-ins for one e-mail (whether or not it has an account), or 20 from one client IP, sign-in is locked
          for 30 seconds, doubling with each further failure up to 15 minutes; failures are forgotten after an hour without one.
        </li>
        <li>
          Passwords (NIST SP 800-63B): 12 to 200 characters of any kind, spaces included; not one of the ~49,000 most common
          passwords; not containing your e-mail address.
        </li>
        <li>Signing out ends that session; a password change or reset ends all of them.</li>
      </ul>

      <h2>Requests</h2>
      <ul>
        <li>A body is at most 16 KiB (413 <code>S413</code> past that); a tRPC input is nested at most 64 levels deep.</li>
        {PAYMENT_TYPES.map((type) => (
          <li key={type}>
            {type} amounts: from {displayNaira(AMOUNT_LIMITS[type].min)} to {displayNaira(AMOUNT_LIMITS[type].max)}, sent as a string of
            naira with at most two decimals (<code>&quot;1500&quot;</code>, <code>&quot;1500.50&quot;</code>).
          </li>
        ))}
        <li>
          <code>paymentReference</code>: 1 to 64 of <code>A-Z a-z 0-9 . _ -</code>; references never expire.
        </li>
        <li>URLs: absolute http(s), at most 2048 characters. Names: 1 to 100 characters. E-mail: at most 254 characters.</li>
      </ul>

      <h2>Lifetimes</h2>
      <SettingTable what="what" rows={LIFETIMES} />

      <h2>Versions</h2>
      <p>
        The version is in the path: <code>/api/v2/…</code>, and <code>/api/v3/payments/query/…</code> for verification (the same answer
        is under <code>/api/v2/</code>).
      </p>
      <ul>
        <li>Within v2, changes are additive only: new optional fields, new endpoints, new events. Ignore fields you do not know.</li>
        <li>
          A breaking change gets a new version. The old one keeps working for at least 6 months and meanwhile answers with{" "}
          <code>Deprecation</code> and <code>Sunset</code> headers.
        </li>
        <li>
          The <a href="/api/v2/openapi.json">OpenAPI document</a> describes the version this Owo serves.
        </li>
      </ul>
    </>
  );
}
