import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { generateSigningSecret, signatureHeaders } from "./signing";

const body = JSON.stringify({ notificationItems: [{ notificationRequestItem: { eventId: "evt_1" } }] });
const now = () => Math.floor(Date.now() / 1000);

describe("generateSigningSecret", () => {
  it("is whsec_ + base64 of 32 random bytes", () => {
    const secret = generateSigningSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    assert.equal(Buffer.from(secret.slice(6), "base64").length, 32);
    assert.notEqual(secret, generateSigningSecret());
  });
});

describe("signatureHeaders", () => {
  it("is accepted by the published verifier with one secret", () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders({ eventId: "evt_1", timestamp: now(), body, secrets: [secret] });
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.equal(headers["webhook-id"], "evt_1");
    assert.match(headers["webhook-signature"], /^v1,[A-Za-z0-9+/]+={0,2}$/);
  });

  it("matches HMAC-SHA256 of id.timestamp.body keyed by the decoded secret", () => {
    const secret = generateSigningSecret();
    const timestamp = 1_700_000_000;
    const headers = signatureHeaders({ eventId: "evt_2", timestamp, body, secrets: [secret] });
    const key = Buffer.from(secret.slice(6), "base64");
    const expected = createHmac("sha256", key).update(`evt_2.${timestamp}.${body}`).digest("base64");
    assert.equal(headers["webhook-signature"], `v1,${expected}`);
    assert.equal(headers["webhook-timestamp"], String(timestamp));
  });

  it("sends both signatures during a grace period, each verifiable alone", () => {
    const oldSecret = generateSigningSecret();
    const newSecret = generateSigningSecret();
    const headers = signatureHeaders({ eventId: "evt_3", timestamp: now(), body, secrets: [newSecret, oldSecret] });
    assert.equal(headers["webhook-signature"].split(" ").length, 2);
    assert.doesNotThrow(() => new Webhook(newSecret).verify(body, headers));
    assert.doesNotThrow(() => new Webhook(oldSecret).verify(body, headers));
    assert.throws(() => new Webhook(generateSigningSecret()).verify(body, headers), /No matching signature/);
  });

  it("is rejected when the body changes by one byte", () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders({ eventId: "evt_4", timestamp: now(), body, secrets: [secret] });
    const tampered = body.slice(0, -1) + (body.endsWith("}") ? "]" : "}");
    assert.equal(tampered.length, body.length);
    assert.throws(() => new Webhook(secret).verify(tampered, headers), /No matching signature/);
  });

  it("is rejected when the timestamp is 10 minutes old", () => {
    const secret = generateSigningSecret();
    const headers = signatureHeaders({ eventId: "evt_5", timestamp: now() - 600, body, secrets: [secret] });
    assert.throws(() => new Webhook(secret).verify(body, headers), /too old/);
  });

  it("refuses no secrets, a secret without whsec_ and a non-integer timestamp", () => {
    assert.throws(() => signatureHeaders({ eventId: "e", timestamp: now(), body, secrets: [] }));
    assert.throws(() => signatureHeaders({ eventId: "e", timestamp: now(), body, secrets: ["abc"] }));
    assert.throws(() => signatureHeaders({ eventId: "e", timestamp: 1.5, body, secrets: [generateSigningSecret()] }));
  });
});
