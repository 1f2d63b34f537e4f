"use client";
// Time left until a payment's expiresAt, ticking each second; the server's render shows the same text at first paint.
import { useEffect, useState } from "react";

function left(expiresAt: string, now: number): string {
  const seconds = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function Countdown({ expiresAt, renderedAt, className }: { expiresAt: string; renderedAt: number; className?: string }) {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const over = Date.parse(expiresAt) <= now;
  return (
    <span className={className} role="timer" aria-live="off">
      {over ? "Time is up" : left(expiresAt, now)}
    </span>
  );
}
