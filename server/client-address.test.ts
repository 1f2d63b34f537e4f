// A client's address as people know it: an IPv4 client heard by a dual-stack listener is recorded by its IPv4 address.
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { test } from "node:test";
import { shownAddress } from "./client-address";
import { clientIp } from "./http/request-body";

test("an IPv4 client seen through an IPv6 listener is shown by its IPv4 address; other addresses as recorded", () => {
  assert.equal(shownAddress("::ffff:127.0.0.1"), "127.0.0.1");
  assert.equal(shownAddress("::FFFF:102.89.4.7"), "102.89.4.7");
  assert.equal(shownAddress("102.89.4.7"), "102.89.4.7");
  assert.equal(shownAddress("2c0f:f5c0:440::1"), "2c0f:f5c0:440::1");
  assert.equal(shownAddress(""), "unknown");
});

test("the address Owo records for a request is the IPv4 one, from the socket or the proxy Owo trusts", () => {
  const request = (remoteAddress: string, forwarded?: string) =>
    ({ socket: { remoteAddress }, headers: forwarded ? { "x-forwarded-for": forwarded } : {} }) as unknown as IncomingMessage;
  assert.equal(clientIp(request("::ffff:102.89.4.7"), false), "102.89.4.7");
  assert.equal(clientIp(request("2c0f:f5c0:440::1"), false), "2c0f:f5c0:440::1");
  assert.equal(clientIp(request("::ffff:10.0.0.2", "41.58.1.9, 10.0.0.2"), true), "41.58.1.9");
  assert.equal(clientIp(request("::ffff:10.0.0.2", "41.58.1.9"), false), "10.0.0.2");
});
