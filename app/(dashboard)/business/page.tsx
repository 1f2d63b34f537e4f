import type { Metadata } from "next";
import { BusinessMark, SupportContact } from "@/app/business-identity";
import { can } from "@/server/auth/permissions";
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE } from "@/server/merchants/logo-image";
import { signedInPage } from "@/server/trpc/page-caller";
import { LogoForm } from "./logo-form";
import { ProfileForm } from "./profile-form";
import styles from "./business.module.css";

export const metadata: Metadata = { title: "Business" };

export default async function BusinessPage() {
  const { caller, api } = await signedInPage();
  const profile = await api.business.profile();
  const mayChange = can(caller, "business.profile");
  return (
    <section>
      <h1>Business</h1>
      <p className="muted">
        Your business as your customers see it: on the checkout, on payment link pages and on their receipts.
        {!mayChange && " Only owners and admins can change it."}
      </p>
      <div className={styles.layout}>
        <div className="stack">
          <h2>Profile</h2>
          <div className="card">
            <ProfileForm profile={profile} mayChange={mayChange} />
          </div>
          <h2>Logo</h2>
          <div className="card">
            <LogoForm logoUrl={profile.logoUrl} mayChange={mayChange} maxKb={LOGO_MAX_BYTES / 1024} maxSide={LOGO_MAX_SIDE} />
          </div>
        </div>
        <div className="stack">
          <h2>What customers see</h2>
          <div className={`card ${styles.preview}`} data-testid="business-preview">
            <BusinessMark name={profile.name} logoUrl={profile.logoUrl} className={styles.previewMark} />
            <p className={styles.previewAmount}>₦5,000.00</p>
            <p className="muted">Transfer exactly ₦5,000.00 from any bank app…</p>
            <SupportContact business={profile} />
          </div>
        </div>
      </div>
    </section>
  );
}
