// A callback refused because its URL is on this machine or a private network (the outbound-URL guard) keeps
// "Retrying" until it gives up; trying Owo locally, the developer needs to hear that the operator can allow it.
type Attempted = { url: string; attempts: { error: string | null }[] };

const PRIVATE = /^refused: .* is (a loopback|a private|a link-local|a carrier-grade)/;

export function PrivateCallbackHint({ deliveries }: { deliveries: Attempted[] }) {
  const refused = deliveries.find((d) => d.attempts.some((a) => PRIVATE.test(a.error ?? "")));
  if (!refused) return null;
  return (
    <p className="muted" role="note" data-testid="private-callback-hint">
      Owo does not call <span className="mono">{new URL(refused.url).host}</span>: callbacks to this machine or a private network are
      refused unless the operator starts Owo with <code>OWO_ALLOW_PRIVATE_CALLBACKS=1</code> — for local development only (see{" "}
      <a href="/docs/callbacks">Callbacks</a>).
    </p>
  );
}
