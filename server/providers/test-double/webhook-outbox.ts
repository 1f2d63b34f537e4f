// A test double's webhooks to Owo: signed as the provider signs them, sent one after another to the configured URL,
// logged with Owo's answer, and bent by the armed faults (dropped, sent twice, held and then sent newest first).
// A provider that asks for an acknowledgement (SeerBit's Webhook V2) sends a fresh reference in a header with each
// attempt, and retries a delivery whose answer does not echo it back in time.
import { randomUUID } from "node:crypto";
import type { FaultPlan } from "./faults";

export type WebhookDelivery = { event: string; body: string; headers: Record<string, string>; at: string; answer: number | string };

const SEND_TIMEOUT_MS = 10_000;

/** How a provider's delivery counts as received: its header, its deadline, and its retries (delays in ms). */
export type Acknowledgement = {
  header: string;
  deadlineMs: number;
  retryDelaysMs: readonly number[];
  /** Whether Owo's answer (status and body) acknowledges the delivery that carried `reference`. */
  acknowledges: (status: number, body: string, reference: string) => boolean;
};

export class WebhookOutbox {
  url: string | null;
  readonly log: WebhookDelivery[] = [];
  private held: { event: string; body: string }[] = [];
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly faults: FaultPlan,
    private readonly signedHeaders: (body: string) => Record<string, string>,
    url?: string,
    private readonly acknowledgement?: Acknowledgement,
  ) {
    this.url = url ?? null;
  }

  /** Queues one event; returns at once, as a provider answers its API before its webhooks go out. */
  send(event: string, payload: unknown): void {
    const body = JSON.stringify(payload);
    const fault = this.faults.take(["drop-webhook", "duplicate-webhook", "reorder-webhooks"]);
    if (fault === "drop-webhook") {
      this.log.push({ event, body, headers: this.signedHeaders(body), at: new Date().toISOString(), answer: "dropped" });
      return;
    }
    if (fault === "reorder-webhooks") {
      this.held.push({ event, body });
      if (this.faults.reorderLeft() === 0) this.releaseHeld();
      return;
    }
    this.enqueue(event, body);
    if (fault === "duplicate-webhook") this.enqueue(event, body);
  }

  /** Sends what a reorder fault holds now, newest first (also when fewer arrived than it asked for). */
  releaseHeld(): number {
    const held = this.held.reverse();
    this.held = [];
    for (const h of held) this.enqueue(h.event, h.body);
    return held.length;
  }

  /** Sends the last webhook that went out once more, byte for byte: a provider's retry and an attacker's replay look alike. */
  replayLast(): boolean {
    const last = this.log.findLast((d) => d.answer !== "dropped");
    if (!last) return false;
    this.enqueue(last.event, last.body);
    return true;
  }

  /** Resolves once every queued webhook has been answered (or failed). */
  settled(): Promise<void> {
    return this.chain;
  }

  private enqueue(event: string, body: string): void {
    this.chain = this.chain.then(() => this.deliver(event, body));
  }

  private async deliver(event: string, body: string, attempt = 0): Promise<void> {
    const ack = this.acknowledgement;
    const reference = ack ? randomUUID() : "";
    const headers = { "content-type": "application/json", ...this.signedHeaders(body), ...(ack ? { [ack.header]: reference } : {}) };
    const entry: WebhookDelivery = { event, body, headers, at: new Date().toISOString(), answer: "not sent: no webhook URL" };
    this.log.push(entry);
    if (!this.url) return;
    try {
      const res = await fetch(this.url, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(ack?.deadlineMs ?? SEND_TIMEOUT_MS),
      });
      const text = await res.text();
      entry.answer =
        !ack || ack.acknowledges(res.status, text, reference) ? res.status : `not acknowledged: ${res.status} ${text.slice(0, 200)}`;
    } catch (err) {
      entry.answer = `failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const delay = ack?.retryDelaysMs[attempt];
    if (typeof entry.answer === "string" && delay !== undefined) {
      await new Promise((r) => setTimeout(r, delay));
      await this.deliver(event, body, attempt + 1);
    }
  }
}
