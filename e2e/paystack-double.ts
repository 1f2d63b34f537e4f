// Paystack's double as its own process for a page test (server/providers/double-cli.ts), on a free port.
import { spawn } from "node:child_process";

export type PaystackDouble = { url: string; stop: () => void };

export async function startPaystackDouble(secretKey: string): Promise<PaystackDouble> {
  const double = spawn(
    process.execPath,
    ["--import", "tsx", "server/providers/double-cli.ts", "paystack", "--port", "0", "--secret-key", secretKey],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    double.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    double.on("exit", (code) => reject(new Error(`paystack double exited ${code}`)));
  });
  return { url, stop: () => double.kill("SIGTERM") };
}
