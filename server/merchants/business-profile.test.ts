// The business profile over real HTTP: owners and admins set the name and support contact (tRPC) and a logo (the core
// the Business page's form calls); customers see them on the checkout; the logo is served as the image it was checked as.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { call, createTestMerchant, startOwo, tokenFor, type Owo, type TestMerchant } from "../testing/harness";
import { png } from "../testing/images";
import { transferBody, trpcFailure } from "../testing/initiation";
import { joinAs, userClient } from "../testing/sessions";

let owo: Owo;
let m: TestMerchant;
before(async () => {
  owo = await startOwo();
  m = await createTestMerchant("Mama Put Kitchen");
});
after(() => owo.stop());

const core = () => import("./business-profile");

test("an owner sets the name and support contact; bad fields are named; developers and viewers may only read", async () => {
  const owner = await userClient(owo, m.userId);
  const bad = await trpcFailure(owner.business.setProfile.mutate({ name: "  ", supportEmail: "not-an-address", supportPhone: "call us" }));
  assert.equal(bad.apiCode, "S5");
  assert.deepEqual(bad.errors.map((e) => e.field).sort(), ["name", "supportEmail", "supportPhone"]);
  assert.match(bad.errors.find((e) => e.field === "supportPhone")?.message ?? "", /7 to 15 digits/);

  const saved = await owner.business.setProfile.mutate({
    name: " Mama Put Kitchen & Grill ",
    supportEmail: "help@mamaput.example.ng",
    supportPhone: "+234 801-234-5678",
  });
  assert.deepEqual(saved, {
    name: "Mama Put Kitchen & Grill",
    supportEmail: "help@mamaput.example.ng",
    supportPhone: "+234 801-234-5678",
    logoUrl: null,
  });
  const audit = await owner.team.audit.query({});
  assert.equal(audit.entries[0]?.sentence, "Changed the business profile (name “Mama Put Kitchen & Grill”).");

  for (const role of ["developer", "viewer"] as const) {
    const member = await userClient(owo, await joinAs(m, role));
    assert.equal((await member.business.profile.query()).supportEmail, "help@mamaput.example.ng");
    const refused = await trpcFailure(member.business.setProfile.mutate({ name: "Taken over", supportEmail: "", supportPhone: "" }));
    assert.equal(refused.apiCode, "S3", `${role} may not change it`);
  }
  // Left empty, a contact is removed rather than kept.
  const cleared = await owner.business.setProfile.mutate({ name: "Mama Put Kitchen & Grill", supportEmail: "", supportPhone: "" });
  assert.deepEqual([cleared.supportEmail, cleared.supportPhone], [null, null]);
  const restored = await owner.business.setProfile.mutate({
    ...cleared,
    supportEmail: "help@mamaput.example.ng",
    supportPhone: "08012345678",
  });
  assert.equal(restored.supportPhone, "08012345678");
});

test("a logo: a PNG is kept and served as itself, never as a page; SVG, other files, huge or oversized images are refused", async () => {
  const { setLogo, businessProfile } = await core();
  const refusal = async (bytes: Buffer) => {
    const e = await setLogo(m.merchantId, m.userId, bytes).catch((err: { errors?: { field: string; message: string }[] }) => err);
    return (e as { errors?: { field: string; message: string }[] }).errors?.[0];
  };
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  assert.deepEqual(await refusal(svg), { field: "logo", message: "must be a PNG, JPEG or WebP image (SVG and other files are refused)" });
  assert.match((await refusal(Buffer.from("GIF89a...")))?.message ?? "", /PNG, JPEG or WebP/);
  assert.equal((await refusal(png(4000, 16)))?.message, "must be 16 to 2000 pixels on each side; this one is 4000 × 16");
  const noisy = Buffer.concat([png(64, 64), Buffer.alloc(210 * 1024, 1)]);
  assert.match((await refusal(noisy))?.message ?? "", /^must be at most 200 KB; this one is \d+ KB$/);
  assert.equal((await businessProfile(m.merchantId)).logoUrl, null, "nothing refused was kept");

  const image = png(120, 48);
  const first = await setLogo(m.merchantId, m.userId, image);
  assert.match(first.logoUrl ?? "", /^\/logos\/logo_[0-9a-z]{20}$/);
  const served = await fetch(`${owo.url}${first.logoUrl}`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get("content-type"), "image/png");
  assert.equal(served.headers.get("x-content-type-options"), "nosniff");
  assert.equal(served.headers.get("content-security-policy"), "default-src 'none'; sandbox");
  assert.match(served.headers.get("cache-control") ?? "", /immutable/);
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), image);
  const owner = await userClient(owo, m.userId);
  assert.equal((await owner.team.audit.query({})).entries[0]?.sentence, "Uploaded a new logo (120 × 48 pixels).");

  // A new logo gets a new address; the old one is gone, and so is a removed one.
  const second = await setLogo(m.merchantId, m.userId, png(48, 48));
  assert.notEqual(second.logoUrl, first.logoUrl);
  assert.equal((await fetch(`${owo.url}${first.logoUrl}`)).status, 404);
  assert.equal((await owner.business.removeLogo.mutate()).logoUrl, null);
  assert.equal((await fetch(`${owo.url}${second.logoUrl}`)).status, 404);
  assert.equal((await fetch(`${owo.url}/logos/..%2Fetc%2Fpasswd`)).status, 404);
  await setLogo(m.merchantId, m.userId, image);
});

test("the customer's checkout shows the business's logo and support contact, and another merchant's stay its own", async () => {
  const other = await createTestMerchant("Bravo Mart");
  const token = await tokenFor(owo, m);
  const issued = await call(owo, "POST", "/api/v2/payments/initiates", { token, body: transferBody(m.publicKey) });
  assert.equal(issued.status, 200, issued.text);
  const input = encodeURIComponent(JSON.stringify({ json: { linkingReference: issued.json.data.payments.linkingReference } }));
  const view = (await call(owo, "GET", `/api/trpc/checkout.status?input=${input}`)).json.result.data.json;
  const profile = await (await core()).businessProfile(m.merchantId);
  assert.equal(view.merchantName, "Mama Put Kitchen & Grill");
  assert.deepEqual(view.business, { logoUrl: profile.logoUrl, supportEmail: "help@mamaput.example.ng", supportPhone: "08012345678" });
  assert.deepEqual(await (await core()).businessProfile(other.merchantId), {
    name: "Bravo Mart",
    supportEmail: null,
    supportPhone: null,
    logoUrl: null,
  });
});
