// How a payment link is shared: its public URL and a QR code of it, drawn as SVG on the server.
import QRCode from "qrcode";
import { settings } from "../settings";

export function linkUrl(slug: string): string {
  return `${settings().publicUrl}/pay/${slug}`;
}

/** Where a link's customers land and its callbacks go when neither the link nor the merchant names a URL. */
export function fallbackUrls(slug: string): { callbackUrl: string; redirectUrl: string } {
  return { callbackUrl: `${linkUrl(slug)}/callback`, redirectUrl: `${linkUrl(slug)}/done` };
}

export function linkQrSvg(slug: string): Promise<string> {
  // Error correction M survives a smudged print; margin 1 keeps the quiet zone without wasting space.
  return QRCode.toString(linkUrl(slug), {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 1,
    color: { dark: "#14213d", light: "#ffffff" },
  });
}
