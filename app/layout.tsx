import type { Metadata, Viewport } from "next";
import "./globals.css";
import "./shell.css";
import "./tables.css";

export const metadata: Metadata = {
  title: { default: "Owo", template: "%s · Owo" },
  description: "Accept USSD and bank transfer payments",
};
export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
