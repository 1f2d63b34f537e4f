import type { Metadata } from "next";
import { lagosDateTime } from "@/app/payment-display";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import { InviteForm, MemberControls, RequireTwoFactor, WithdrawInvite } from "./team-controls";
import styles from "./team.module.css";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const { caller, api } = await signedInPage();
  const manager = can(caller, "team.manage");
  const before = Number((await searchParams).before) || undefined;
  const [members, invites, audit] = await Promise.all([
    api.team.members(),
    manager ? api.team.invites() : Promise.resolve([]),
    manager ? api.team.audit({ before, limit: 50 }) : Promise.resolve(null),
  ]);
  const mayGrantOwner = can(caller, "team.grantOwner");
  return (
    <section>
      <h1>Team</h1>
      <p className="muted">
        Everyone here works on {caller.merchantName}. Viewers see payments, links and reports; developers also manage keys, webhooks and
        links; admins and owners also manage the team.
      </p>

      {can(caller, "team.requireTwoFactor") && (
        <div className="card" style={{ marginBottom: "1rem" }}>
          <h2 style={{ marginTop: 0 }}>Sign-in security</h2>
          <RequireTwoFactor required={caller.teamRequiresTwoFactor} />
        </div>
      )}
      {manager && (
        <div className="card">
          <h2 style={{ marginTop: 0 }}>Invite someone</h2>
          {can(caller, "team.invite") ? (
            <InviteForm mayGrantOwner={mayGrantOwner} />
          ) : (
            <p className="muted">
              Confirm your e-mail address before you invite anyone: open the link we mailed you, or <a href="/account">send it again</a>.
            </p>
          )}
        </div>
      )}

      <h2>Members</h2>
      <div className={styles.tableWrap}>
        <table>
          <thead>
            <tr>
              <th>Person</th>
              <th>Role</th>
              <th>Joined</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.userId} data-testid="member-row">
                <td>
                  {/* An owner who signed up without a name is known by their e-mail: say it once. */}
                  <strong>{m.name}</strong>
                  {m.userId === caller.userId && <span className="muted"> (you)</span>}
                  {m.name !== m.email && <div className="muted">{m.email}</div>}
                </td>
                <td>
                  {manager ? (
                    <MemberControls userId={m.userId} role={m.role} name={m.name} mayGrantOwner={mayGrantOwner} />
                  ) : (
                    <span className={styles.role}>{m.role}</span>
                  )}
                </td>
                <td style={{ whiteSpace: "nowrap" }}>{lagosDateTime(m.joinedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {manager && invites.length > 0 && (
        <>
          <h2>Open invites</h2>
          <div className={styles.tableWrap}>
            <table>
              <thead>
                <tr>
                  <th>Role</th>
                  <th>For</th>
                  <th>Invited by</th>
                  <th>Expires</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {invites.map((i) => (
                  <tr key={i.id}>
                    <td className={styles.role}>{i.role}</td>
                    <td>{i.email ?? <span className="muted">anyone with the link</span>}</td>
                    <td>{i.invitedBy}</td>
                    <td style={{ whiteSpace: "nowrap" }}>{lagosDateTime(i.expiresAt)}</td>
                    <td>
                      <WithdrawInvite id={i.id} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      {audit && (
        <>
          <h2 id="audit">Audit log</h2>
          <p className="muted">Every change made by a signed-in person, newest first. Secrets are never recorded.</p>
          {audit.entries.length === 0 ? (
            <p className="muted">Nothing yet.</p>
          ) : (
            <div className={styles.tableWrap}>
              <table>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Who</th>
                    <th>What</th>
                  </tr>
                </thead>
                <tbody>
                  {audit.entries.map((e) => (
                    <tr key={e.id} data-testid="audit-row">
                      <td style={{ whiteSpace: "nowrap" }}>{lagosDateTime(e.at)}</td>
                      <td>{e.userEmail ?? "—"}</td>
                      <td data-testid="audit-sentence">{e.sentence}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {audit.nextBefore && (
            <p>
              <a href={`/team?before=${audit.nextBefore}#audit`}>Older entries →</a>
            </p>
          )}
        </>
      )}
    </section>
  );
}
