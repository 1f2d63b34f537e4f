"use client";
// Buttons that act through JavaScript stay disabled until it runs: a click on server-rendered HTML would do nothing
// (sign-out) or submit the form natively (sign-in would put the password in the URL).
import { useSyncExternalStore } from "react";

const noop = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
