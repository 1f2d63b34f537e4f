"use client";
// Time left until a payment's expiresAt, ticking each second; the server's render shows the same text at first paint.
import { useEffect, useState } from "react";
import { timeLeft } from "./payment-display";

export function Countdown({ expiresAt, renderedAt, className }: { expiresAt: string; renderedAt: number; className?: string }) {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <span className={className} role="timer" aria-live="off">
      {timeLeft(expiresAt, now)}
    </span>
  );
}
