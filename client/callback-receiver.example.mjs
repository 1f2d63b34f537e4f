// A merchant's callback receiver: checks Owo's Standard Webhooks signature, drops repeats and
// stale events, answers fast. The docs show this very file and client/callback-receiver.test.ts
// runs it against a real Owo delivering real callbacks.
//   OWO_WEBHOOK_SECRET=whsec_… PORT=4000 node callback-receiver.example.mjs
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.OWO_WEBHOOK_SECRET);

// Keep both in your database; memory is enough for an example.
// A retry, or a resend from the dashboard, repeats the eventId.
const handledEventIds = new Set();
// paymentReference → newest sequence seen, so a late retry cannot undo a newer event.
const lastSequence = new Map();

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  // Verify the exact bytes received: parsing and re-serialising first would break the signature.
  const body = Buffer.concat(chunks).toString("utf8");

  let notification;
  try {
    // Reads webhook-id, webhook-timestamp (5 minutes' tolerance) and webhook-signature.
    notification = webhook.verify(body, req.headers);
  } catch {
    console.log("refused: signature does not verify");
    res.writeHead(400).end();
    return;
  }

  for (const { notificationRequestItem: item } of notification.notificationItems) {
    const { event, sequence, paymentReference, status, amountPaid } = item.data;
    if (handledEventIds.has(item.eventId)) {
      console.log(`repeat of ${item.eventId}: already handled`);
      continue;
    }
    handledEventIds.add(item.eventId);
    if (sequence <= (lastSequence.get(paymentReference) ?? 0)) {
      console.log(`stale ${event} for ${paymentReference}: sequence ${sequence} is older`);
      continue;
    }
    lastSequence.set(paymentReference, sequence);
    console.log(`${event} ${paymentReference}: ${status}, paid ${amountPaid} (sequence ${sequence})`);
    // Fulfil the order here when status is SUCCESSFUL (verify first). Owo waits 15 s at most
    // for the answer, so queue slow work instead of doing it here.
  }
  res.writeHead(204).end();
}).listen(Number(process.env.PORT ?? 4000), () => console.log("listening"));
