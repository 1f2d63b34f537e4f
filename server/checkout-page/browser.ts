// The checkout's script on the customer's phone (bundled by assets.ts, a few KB): follows the payment by polling
// checkout.status, redraws the card with view.ts when the payment changes, ticks the countdown, copies, sends a
// standard checkout's choice, and goes back to the shop after the receipt. No framework: this page must stay light.
import { copyText } from "../../app/clipboard";
import { timeLeft } from "../../app/payment-display";
import type { CheckoutStatus } from "../payments/checkout";
import { checkoutCard, goingBackText, RETURN_AFTER_S } from "./view";

const POLL_MS = 2500;
const HIDDEN_POLL_MS = 10_000;

/** A refusal from the tRPC door: its message is written for the customer. */
class Refusal extends Error {
  constructor(
    message: string,
    readonly httpStatus: number,
  ) {
    super(message);
  }
}

type Answer = { result?: { data: { json: CheckoutStatus } }; error?: { json: { message: string } } };

/** One tRPC call as its HTTP door takes it (superjson's envelope; a checkout's answer holds only JSON values). */
async function call(procedure: "status" | "choose", input: Record<string, unknown>): Promise<CheckoutStatus> {
  const url = `/api/trpc/checkout.${procedure}`;
  const body = JSON.stringify({ json: input });
  const res =
    procedure === "status"
      ? await fetch(`${url}?input=${encodeURIComponent(body)}`)
      : await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const answer = (await res.json()) as Answer;
  if (!answer.result) throw new Refusal(answer.error?.json.message ?? `HTTP ${res.status}`, res.status);
  return answer.result.data.json;
}

const card = document.getElementById("checkout-card");
const state = document.getElementById("checkout-state");
if (card && state) {
  const initial = JSON.parse(state.textContent ?? "{}") as { view: CheckoutStatus; qr: string | null };
  let view = initial.view;
  let drawn = JSON.stringify(view);

  const show = (next: CheckoutStatus) => {
    view = next;
    const text = JSON.stringify(next);
    // Redrawn only when something changed, so a poll never resets a bank the customer is choosing.
    if (text === drawn) return;
    drawn = text;
    card.innerHTML = checkoutCard(next, initial.qr, Date.now()).text;
  };

  const tick = () => {
    for (const clock of card.querySelectorAll<HTMLElement>("[data-expires-at]")) {
      clock.textContent = timeLeft(clock.dataset.expiresAt ?? "", Date.now());
    }
  };
  tick();
  setInterval(tick, 1000);

  // Once a receipt with a way back is shown, count down and go.
  let back = RETURN_AFTER_S;
  setInterval(() => {
    const note = card.querySelector<HTMLElement>("[data-going-back]");
    if (!note) return;
    back -= 1;
    note.textContent = goingBackText(back);
    if (back === 0) window.location.assign(note.dataset.goingBack ?? "/");
  }, 1000);

  /** Polls while the payment is open: quicker when visible, backing off when limited or offline. */
  const poll = async () => {
    let wait = document.visibilityState === "hidden" ? HIDDEN_POLL_MS : POLL_MS;
    try {
      show(await call("status", { linkingReference: view.linkingReference }));
      if (!view.open) return;
      // Past the deadline the next answer reads EXPIRED; ask for it right away.
      wait = Math.min(wait, Math.max(250, Date.parse(view.expiresAt) - Date.now() + 250));
    } catch (e) {
      wait = e instanceof Refusal && e.httpStatus === 429 ? 15_000 : 5_000;
    }
    setTimeout(() => void poll(), wait);
  };
  if (view.open) setTimeout(() => void poll(), POLL_MS);

  const choose = async (choice: { paymentType: string; bankCode?: string }) => {
    const controls = card.querySelectorAll<HTMLButtonElement | HTMLSelectElement>("section button, section select");
    const problem = card.querySelector<HTMLElement>("[role=alert]");
    for (const c of controls) c.disabled = true;
    if (problem) problem.hidden = true;
    try {
      show(await call("choose", { linkingReference: view.linkingReference, ...choice }));
    } catch (e) {
      if (problem) {
        problem.textContent = e instanceof Refusal ? e.message : "Something went wrong; try again.";
        problem.hidden = false;
      }
      for (const c of controls) c.disabled = c instanceof HTMLButtonElement && c.type === "submit" && !bankChosen();
    }
  };
  const bankChosen = () => card.querySelector<HTMLSelectElement>("#ussd-bank")?.value ?? "";

  card.addEventListener("change", (e) => {
    if (!(e.target instanceof HTMLSelectElement)) return;
    const submit = e.target.form?.querySelector<HTMLButtonElement>("button[type=submit]");
    if (submit) submit.disabled = !e.target.value;
  });
  card.addEventListener("submit", (e) => {
    e.preventDefault();
    if (bankChosen()) void choose({ paymentType: "USSD", bankCode: bankChosen() });
  });
  card.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest<HTMLButtonElement>("button") : null;
    if (button?.dataset.choose === "TRANSFER") void choose({ paymentType: "TRANSFER" });
    if (button?.dataset.copy !== undefined) void copy(button, button.dataset.copy);
  });
}

/** Copies a dial code or account number, and says so for a moment. */
async function copy(button: HTMLButtonElement, value: string): Promise<void> {
  await copyText(value);
  const words = button.querySelector("span");
  if (!words) return;
  const label = words.textContent;
  words.textContent = "Copied";
  setTimeout(() => (words.textContent = label), 1500);
}
