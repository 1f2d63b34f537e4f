// A backup archive: a plain header (format, key derivation, nonce) then the sealed body, AES-256-GCM under a key
// scrypt derives from the operator's passphrase, the header bound in as additional data. The body is a length-
// prefixed manifest (the secrets and the database's digest) followed by the database file's bytes. Streamed both
// ways, so a large database never sits in memory. A backup that needed the lost master key to open would be no backup.
import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt } from "node:crypto";
import { closeSync, createReadStream, createWriteStream, openSync, readSync, statSync, type WriteStream } from "node:fs";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";

const MAGIC = "OWO-BACKUP 1\n";
const TAG_BYTES = 16;
/** scrypt at N=2^15, r=8: about 32 MiB and a tenth of a second per try, so a guessed passphrase costs that each. */
const KDF = { N: 2 ** 15, r: 8, p: 1 } as const;

export type Manifest = {
  createdAt: string;
  secrets: { masterKey: string; authSecret: string; sandboxBankSecret: string };
  database: { dialect: "sqlite"; bytes: number; sha256: string };
};

type Header = { kdf: "scrypt"; N: number; r: number; p: number; salt: string; iv: string };

export class BackupRefused extends Error {}

function deriveKey(passphrase: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 32, { ...params, maxmem: 256 * params.N * params.r }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

async function* framed(manifest: Manifest, databaseFile: string): AsyncGenerator<Buffer> {
  const json = Buffer.from(JSON.stringify(manifest));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  yield Buffer.concat([length, json]);
  yield* createReadStream(databaseFile) as AsyncIterable<Buffer>;
}

function ended(out: WriteStream, last: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    out.once("error", reject);
    out.end(last, resolve);
  });
}

/** Writes `databaseFile` and the manifest's secrets to `archive`, sealed under `passphrase`. */
export async function writeArchive(archive: string, passphrase: string, manifest: Manifest, databaseFile: string): Promise<void> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const header: Header = { kdf: "scrypt", ...KDF, salt: salt.toString("base64"), iv: iv.toString("base64") };
  const headerLine = Buffer.from(MAGIC + JSON.stringify(header) + "\n");
  const cipher = createCipheriv("aes-256-gcm", await deriveKey(passphrase, salt, KDF), iv);
  cipher.setAAD(headerLine);
  const out = createWriteStream(archive, { mode: 0o600, flags: "wx" });
  out.write(headerLine);
  await pipeline(framed(manifest, databaseFile), cipher, out, { end: false });
  await ended(out, cipher.getAuthTag());
}

/** Passes the body's bytes after the manifest on; the manifest itself is kept. */
class ManifestSplitter extends Transform {
  private head = Buffer.alloc(0);
  manifest: Manifest | null = null;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.manifest) return done(null, chunk);
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 4) return done();
    const length = this.head.readUInt32BE(0);
    if (this.head.length < 4 + length) return done();
    this.manifest = JSON.parse(this.head.subarray(4, 4 + length).toString("utf8")) as Manifest;
    const rest = this.head.subarray(4 + length);
    this.head = Buffer.alloc(0);
    done(null, rest);
  }
}

function readHeader(archive: string): { header: Header; headerLine: Buffer; tag: Buffer; bodyEnd: number } {
  const size = statSync(archive).size;
  const fd = openSync(archive, "r");
  try {
    const start = Buffer.alloc(Math.min(size, 4096));
    readSync(fd, start, 0, start.length, 0);
    const newline = start.indexOf("\n", MAGIC.length);
    if (!start.subarray(0, MAGIC.length).equals(Buffer.from(MAGIC)) || newline < 0)
      throw new BackupRefused(`${archive} is not an Owo backup (made by "owo db backup")`);
    const headerLine = start.subarray(0, newline + 1);
    const header = JSON.parse(headerLine.subarray(MAGIC.length).toString("utf8")) as Header;
    const tag = Buffer.alloc(TAG_BYTES);
    if (size < headerLine.length + TAG_BYTES) throw new BackupRefused(`${archive} is cut short`);
    readSync(fd, tag, 0, TAG_BYTES, size - TAG_BYTES);
    return { header, headerLine, tag, bodyEnd: size - TAG_BYTES - 1 };
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens `archive` with `passphrase`, writing its database to `databaseFile` (which must not exist); returns the
 * manifest once the archive's tag and the database's digest both check out. A wrong passphrase and a changed byte
 * look the same to GCM: both refuse.
 */
export async function readArchive(archive: string, passphrase: string, databaseFile: string): Promise<Manifest> {
  const { header, headerLine, tag, bodyEnd } = readHeader(archive);
  const key = await deriveKey(passphrase, Buffer.from(header.salt, "base64"), header);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(header.iv, "base64"));
  decipher.setAAD(headerLine);
  decipher.setAuthTag(tag);
  const splitter = new ManifestSplitter();
  const digest = createHash("sha256");
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, done) {
      digest.update(chunk);
      done(null, chunk);
    },
  });
  const body = createReadStream(archive, { start: headerLine.length, end: bodyEnd });
  try {
    await pipeline(body, decipher, splitter, hashing, createWriteStream(databaseFile, { flags: "wx", mode: 0o600 }));
  } catch (err) {
    if (err instanceof Error && /unable to authenticate|auth/i.test(err.message))
      throw new BackupRefused("The backup does not open with this passphrase (or it was changed after it was written)");
    throw err;
  }
  const manifest = splitter.manifest;
  if (!manifest) throw new BackupRefused("The backup holds no manifest");
  if (digest.digest("hex") !== manifest.database.sha256)
    throw new BackupRefused("The restored database's digest differs from the backup's");
  return manifest;
}

/** The passphrase file's first line; short ones are refused, since the archive holds the master key. */
export function passphraseFrom(text: string, file: string): string {
  const passphrase = text.split(/\r?\n/)[0] ?? "";
  if (passphrase.length < 12) throw new BackupRefused(`${file}: the passphrase must be at least 12 characters on its first line`);
  return passphrase;
}
