"use client";
// Each signed-in session of the person: device, address, first and last seen; sign one out, or all but this one.
import { FormError } from "@/app/form-error";
import { lagosDateTime } from "@/app/payment-display";
import { trpc } from "@/app/trpc-provider";
import listing from "../../listing.module.css";
import styles from "./sessions.module.css";

export function SessionsList() {
  const utils = trpc.useUtils();
  const sessions = trpc.account.sessions.list.useQuery();
  const refresh = () => utils.account.sessions.list.invalidate();
  const end = trpc.account.sessions.end.useMutation({
    onSuccess: (_, { id }) => (sessions.data?.find((s) => s.id === id)?.current ? window.location.assign("/signin") : refresh()),
  });
  const endOthers = trpc.account.sessions.endOthers.useMutation({ onSuccess: refresh });
  if (!sessions.data) return <p className="muted">Loading…</p>;
  const others = sessions.data.filter((s) => !s.current).length;
  return (
    <div className="stack">
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Device</th>
            <th className={styles.wide}>Address</th>
            <th className={styles.wide}>Signed in</th>
            <th className={styles.wide}>Last seen</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {sessions.data.map((s) => (
            <tr key={s.id} data-testid="session">
              <td title={s.userAgent}>
                {s.device} {s.current && <strong>(this session)</strong>}
                <span className={`${listing.sub} ${listing.narrowOnly}`}>
                  {s.ip} · last seen {lagosDateTime(s.lastSeen)}
                </span>
              </td>
              <td className={styles.wide}>{s.ip}</td>
              <td className={styles.wide}>{lagosDateTime(s.firstSeen)}</td>
              <td className={styles.wide}>{lagosDateTime(s.lastSeen)}</td>
              <td>
                <button type="button" className="secondary" disabled={end.isPending} onClick={() => end.mutate({ id: s.id })}>
                  Sign out this session
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FormError message={end.error?.message ?? endOthers.error?.message} />
      <button type="button" disabled={others === 0 || endOthers.isPending} onClick={() => endOthers.mutate()}>
        Sign out everywhere else{others ? ` (${others})` : ""}
      </button>
      {endOthers.data && <p role="status">Signed out of {endOthers.data.ended} other session(s).</p>}
    </div>
  );
}
