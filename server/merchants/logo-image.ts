// What a merchant may upload as its logo, decided from the bytes themselves (never the file's name or the browser's
// claimed type): a PNG, JPEG or WebP image, small in bytes and in pixels. SVG is refused: it is a document that can
// carry script and links, and it would be shown on the page where customers pay. A raster image cannot run anything,
// and the pixel limit keeps a tiny file from unpacking into an image that exhausts a customer's phone.
import type { FieldError } from "../api-error";

export const LOGO_MAX_BYTES = 200 * 1024;
export const LOGO_MAX_SIDE = 2000;
const LOGO_MIN_SIDE = 16;

export type LogoType = "image/png" | "image/jpeg" | "image/webp";
export type LogoImage = { contentType: LogoType; width: number; height: number };

const startsWith = (b: Buffer, bytes: number[], at = 0) => bytes.every((v, i) => b[at + i] === v);

function png(b: Buffer): LogoImage | null {
  // The signature, then the IHDR chunk first (PNG spec 5.2, 11.2.2): width and height as big-endian 32-bit numbers.
  if (!startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) || b.toString("latin1", 12, 16) !== "IHDR" || b.length < 24)
    return null;
  return { contentType: "image/png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function jpeg(b: Buffer): LogoImage | null {
  if (!startsWith(b, [0xff, 0xd8, 0xff])) return null;
  // Walk the markers to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC), which holds height then width.
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = b.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { contentType: "image/jpeg", height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    }
    if (marker === 0xda || length < 2) return null; // image data before any frame header: not a JPEG a browser shows
    at += 2 + length;
  }
  return null;
}

function webp(b: Buffer): LogoImage | null {
  if (b.toString("latin1", 0, 4) !== "RIFF" || b.toString("latin1", 8, 12) !== "WEBP" || b.length < 30) return null;
  const chunk = b.toString("latin1", 12, 16);
  const size = (width: number, height: number): LogoImage => ({ contentType: "image/webp", width, height });
  // RFC 9649: VP8X holds the canvas size (24-bit, minus one); VP8 a key frame's 14-bit sizes; VP8L 14-bit sizes, minus one.
  if (chunk === "VP8X") return size(1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
  if (chunk === "VP8 " && startsWith(b, [0x9d, 0x01, 0x2a], 23)) return size(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return size(1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff));
  }
  return null;
}

/** The image the bytes are, or what is wrong with them, on the `logo` field. */
export function readLogo(bytes: Buffer): LogoImage | FieldError {
  const refuse = (message: string): FieldError => ({ field: "logo", message });
  if (bytes.length === 0) return refuse("is empty: choose a PNG, JPEG or WebP image");
  if (bytes.length > LOGO_MAX_BYTES)
    return refuse(`must be at most ${LOGO_MAX_BYTES / 1024} KB; this one is ${Math.ceil(bytes.length / 1024)} KB`);
  const image = png(bytes) ?? jpeg(bytes) ?? webp(bytes);
  if (!image) return refuse("must be a PNG, JPEG or WebP image (SVG and other files are refused)");
  const { width, height } = image;
  if (width < LOGO_MIN_SIDE || height < LOGO_MIN_SIDE || width > LOGO_MAX_SIDE || height > LOGO_MAX_SIDE) {
    return refuse(`must be ${LOGO_MIN_SIDE} to ${LOGO_MAX_SIDE} pixels on each side; this one is ${width} × ${height}`);
  }
  return image;
}
