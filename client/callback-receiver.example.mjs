// A merchant's callback receiver: checks Owo's Standard Webhooks signature, drops repeats and stale events, answers fast.
// The docs show this very file and server/openapi/docs-examples.test.ts runs it against a real Owo.
//   OWO_WEBHOOK_SECRET=whsec_… PORT=4000 node callback-receiver.example.mjs
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.OWO_WEBHOOK_SECRET);

// Keep both in your database; memory is enough for an example.
const handledEventIds = new Set(); // a retry or a resend from the dashboard repeats the eventId
const lastSequence = new Map(); // paymentReference → newest event seen, so a late retry cannot undo a newer one

createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  // Verify the exact bytes received: parsing and re-serialising first would break the signature.
  const body = Buffer.concat(chunks).toString("utf8");

  let notification;
  try {
    notification = webhook.verify(body, req.headers); // webhook-id, webhook-timestamp (5 min tolerance), webhook-signature
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
      console.log(`stale ${event} for ${paymentReference}: sequence ${sequence} is older than what we know`);
      continue;
    }
    lastSequence.set(paymentReference, sequence);
    console.log(`${event} ${paymentReference}: ${status}, paid ${amountPaid} (sequence ${sequence})`);
    // Fulfil the order here when status is SUCCESSFUL: do slow work after answering, Owo waits at most 15 s.
  }
  res.writeHead(204).end();
}).listen(Number(process.env.PORT ?? 4000), () => console.log("listening"));
