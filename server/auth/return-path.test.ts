// After sign-in only a path of this site is followed, however the other site is spelled.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sameOriginPath } from "./return-path";

test("other hosts spelled as paths fall back to the dashboard", () => {
  // As Next hands them over: the query string already percent-decoded once.
  for (const evil of [
    "/\\evil.example/phish",
    "/\t/evil.example/phish",
    "//evil.example",
    "/.//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/\\/evil.example",
    "\\\\evil.example",
    "/\n/evil.example",
  ]) {
    assert.equal(sameOriginPath(evil), "/dashboard", JSON.stringify(evil));
  }
});

test("paths of this site are kept, normalised as the browser would", () => {
  assert.equal(sameOriginPath("/payments?status=PENDING#top"), "/payments?status=PENDING#top");
  assert.equal(sameOriginPath("/links/../team"), "/team");
  assert.equal(sameOriginPath(undefined), "/dashboard");
});
