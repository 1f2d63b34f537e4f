// Sign-in as an attacker tries it: guessing one account's password, guessing from one address, timing unknown
// e-mails, and sending the signed-in person to another site afterwards.
import { networkInterfaces } from "node:os";
import { request as newRequest, type APIRequestContext } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { expect, signUp, test, unique } from "./fixtures";

/** One password attempt as next-auth's own client posts it; the `error` it answers (null: signed in). */
async function attempt(api: APIRequestContext, email: string, password: string): Promise<string | null> {
  const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const res = await api.post("/api/auth/callback/credentials", { form: { csrfToken, email, password, json: "true" } });
  const { url } = (await res.json()) as { url: string };
  return new URL(url).searchParams.get("error");
}

test("five wrong passwords lock the account: even the right one is refused for a while", async ({ page, playwright }) => {
  const merchant = await signUp(page);
  const api = await playwright.request.newContext({ baseURL });
  for (let i = 0; i < 5; i++) expect(await attempt(api, merchant.email, `wrong guess number ${i}`)).toBe("CredentialsSignin");
  expect(await attempt(api, merchant.email, merchant.password)).toBe("TooManyAttempts");
  // An unknown e-mail locks the same way, so a lockout says nothing about who has an account.
  const ghost = `ghost${unique()}@example.com`;
  for (let i = 0; i < 5; i++) expect(await attempt(api, ghost, `wrong guess number ${i}`)).toBe("CredentialsSignin");
  expect(await attempt(api, ghost, "anything at all here")).toBe("TooManyAttempts");

  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Password").fill(merchant.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".form-error")).toHaveText("Too many failed sign-ins; wait a few minutes and try again.");
  await api.dispose();
});

test("a burst of concurrent wrong passwords gets no more guesses checked than the limit of five", async ({ page, playwright }) => {
  const merchant = await signUp(page);
  const api = await playwright.request.newContext({ baseURL });
  // One CSRF token for the whole burst, as a script firing at once would hold it.
  const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const answers = await Promise.all(
    Array.from({ length: 12 }, async (_, i) => {
      const form = { csrfToken, email: merchant.email, password: `concurrent wrong guess ${i}`, json: "true" };
      const { url } = (await (await api.post("/api/auth/callback/credentials", { form })).json()) as { url: string };
      return new URL(url).searchParams.get("error");
    }),
  );
  expect(answers.filter((a) => a === "CredentialsSignin").length).toBe(5);
  expect(answers.filter((a) => a === "TooManyAttempts").length).toBe(7);
  expect(await attempt(api, merchant.email, merchant.password)).toBe("TooManyAttempts");
  await api.dispose();
});

const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

test("guesses spread over many accounts from one address lock that address out", async ({ page }) => {
  test.skip(!outside, "no non-loopback address on this machine (loopback is not counted per IP)");
  const merchant = await signUp(page);
  // This machine's own non-loopback address: the server sees a client IP that is not loopback.
  const api = await newRequest.newContext({ baseURL: baseURL.replace("127.0.0.1", outside as string) });
  for (let i = 0; i < 20; i++)
    expect(await attempt(api, `victim${i}.${unique()}@example.com`, "summer2024summer")).toBe("CredentialsSignin");
  expect(await attempt(api, merchant.email, merchant.password)).toBe("TooManyAttempts");
  await api.dispose();
  // Everyone else (here: loopback) still signs in.
  const local = await newRequest.newContext({ baseURL });
  expect(await attempt(local, merchant.email, merchant.password)).toBeNull();
  await local.dispose();
});

test("an unknown e-mail takes as long to refuse as a wrong password", async ({ page, playwright }) => {
  const accounts = [await signUp(page), await signUp(page)];
  const api = await playwright.request.newContext({ baseURL });
  const timed = async (email: string) => {
    const started = performance.now();
    expect(await attempt(api, email, "not the right password")).toBe("CredentialsSignin");
    return performance.now() - started;
  };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < 4; i++) {
    for (const a of accounts) known.push(await timed(a.email));
    unknown.push(await timed(`nobody${unique()}@example.com`), await timed(`nobody${unique()}@example.com`));
  }
  // The quickest of each: a busy machine only ever adds time, so the least time is each path's own work. Without a hash
  // for unknown e-mails they answered ~50 ms sooner (the argon2 check), far below this bound.
  expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.7);
  await api.dispose();
});

for (const evil of ["/%5Cevil.example/phish", "/%09/evil.example/phish"]) {
  test(`sign-in with callbackUrl=${evil} stays on this site`, async ({ page, browser }) => {
    const merchant = await signUp(page);
    const visitor = await (await browser.newContext()).newPage();
    let phished = false;
    await visitor.context().route(
      (url) => url.hostname.endsWith("evil.example"),
      (route) => {
        phished = true;
        return route.fulfill({ body: "phished" });
      },
    );
    await visitor.goto(`/signin?callbackUrl=${evil}`);
    await visitor.getByLabel("E-mail").fill(merchant.email);
    await visitor.getByLabel("Password").fill(merchant.password);
    await visitor.getByRole("button", { name: "Sign in" }).click();
    await expect(visitor).toHaveURL(`${baseURL}/dashboard`);
    expect(phished).toBe(false);
  });
}

test("sign-up with an address that has an account does not say so", async ({ page, browser }) => {
  const holder = await signUp(page);
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto("/signup");
  await stranger.getByLabel("Business name").fill("Copycat Ltd");
  await stranger.getByLabel("E-mail").fill(holder.email);
  await stranger.getByLabel("Password").fill("another long passphrase");
  await stranger.getByRole("button", { name: "Create account" }).click();
  await expect(stranger.getByText("cannot be used to create an account").first()).toBeVisible();
  await expect(stranger.getByText(/already (exists|registered)/)).toHaveCount(0);
});
