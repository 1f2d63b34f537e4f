// A dial code as something to tap or scan: a tel: link (with # escaped, or the dialer drops the rest) and its QR code.
import QRCode from "qrcode";

export function telLink(dialCode: string): string {
  return `tel:${dialCode.replaceAll("#", "%23")}`;
}

/** An SVG image (as a data: URL) of the tel: link; a phone's camera offers to dial it. */
export async function dialQrCode(dialCode: string): Promise<string> {
  const svg = await QRCode.toString(telLink(dialCode), {
    type: "svg",
    margin: 1,
    errorCorrectionLevel: "M",
    color: { dark: "#14213d", light: "#ffffff" },
  });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
