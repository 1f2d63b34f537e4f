import type { Metadata } from "next";
import { randomBytes } from "node:crypto";
import { ussdBanks } from "@/server/providers/banks";
import { can } from "@/server/auth/permissions";
import { signedInPage } from "@/server/trpc/page-caller";
import styles from "../payments.module.css";
import { NewPaymentForm } from "./new-payment-form";

export const metadata: Metadata = { title: "New payment" };

export default async function NewPaymentPage() {
  const { api, caller } = await signedInPage();
  if (caller && !can(caller, "change")) {
    return (
      <section className="card">
        <h1>New payment</h1>
        <p className="muted">Viewers can see payments but not create them. Ask an owner or admin for the developer role.</p>
      </section>
    );
  }
  const defaults = await api.links.defaults();
  return (
    <section className={styles.page}>
      <header>
        <h1>New payment</h1>
        <p className="muted">
          Ask a customer to pay by USSD (a dial code at their bank) or bank transfer (an account opened for this payment). The same rules as
          the API apply.
        </p>
      </header>
      <NewPaymentForm
        banks={ussdBanks.map((b) => ({ bankCode: b.bankCode, bankName: b.bankName, ussdCode: b.ussdCode ?? "" }))}
        suggestedReference={`ord-${new Date().toISOString().slice(2, 10).replaceAll("-", "")}-${randomBytes(3).toString("hex")}`}
        defaultCallbackUrl={defaults.defaultCallbackUrl}
        defaultRedirectUrl={defaults.defaultRedirectUrl}
      />
    </section>
  );
}
