// `npm run seed`: on an empty database, a demo merchant to sign in with (and its keys, printed once).
import { closeDatabase, db, migrateDatabase } from "../../db/client";
import { merchants } from "../../db/schema";
import { createMerchant } from "../merchants/create-merchant";
import { settings } from "../settings";
import { DEMO, DEMO_SUPPORT } from "./demo-account";
import { setBusinessProfile } from "../merchants/business-profile";

async function seed() {
  await migrateDatabase();
  if ((await db().select({ id: merchants.id }).from(merchants).limit(1))[0]) {
    console.log("Database already has merchants; seed skipped.");
    return;
  }
  const m = await createMerchant({ ...DEMO, emailVerified: true });
  await setBusinessProfile(m.merchantId, { name: DEMO.name, ...DEMO_SUPPORT });
  const { seedDemoPayments } = await import("./demo-payments");
  const count = await seedDemoPayments(m.merchantId);
  console.log(`Demo merchant "${DEMO.name}" created with ${count} sample payments.
  sign in:        ${DEMO.email} / ${DEMO.password}
  merchant id:    ${m.merchantId}   (the operator CLI's --merchant)
  public key:     ${m.publicKey}
  secret key:     ${m.secretKey}
  webhook secret: ${m.webhookSecret}
  mail:           ${settings().smtpUrl ? "sent over OWO_SMTP_URL" : 'no OWO_SMTP_URL, so it is kept: "Mail sent by this Owo" in the dashboard, or npm run owo -- mail list'}`);
}

seed()
  .then(() => closeDatabase())
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
