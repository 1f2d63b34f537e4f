"use client";
// The dashboard's tRPC client (@trpc/react-query): same-origin /api/trpc with the session cookie, superjson like the server.
import { MutationCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { httpBatchLink } from "@trpc/client";
import { createTRPCReact } from "@trpc/react-query";
import { useState } from "react";
import superjson from "superjson";
import type { AppRouter } from "@/server/trpc/root";

/** Hooks by procedure: `trpc.payments.byReference.useQuery(…)`, `trpc.links.create.useMutation(…)`, `trpc.useUtils()`. */
export const trpc = createTRPCReact<AppRouter>();

export const FRESH_CODE_EVENT = "owo:fresh-second-factor";

/** True for a refusal that asks for a fresh two-factor code (server/users/two-factor.ts: the field `secondFactor`). */
export function asksForFreshCode(error: unknown): boolean {
  const errors = (error as { data?: { errors?: { field: string }[] } } | null)?.data?.errors;
  return Array.isArray(errors) && errors.some((e) => e.field === "secondFactor");
}

export function TrpcProvider({ children }: { children: React.ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, retry: 1 } },
        // Any sensitive action refused for want of a fresh two-factor code opens the dashboard's code dialog.
        mutationCache: new MutationCache({
          onError: (error) => (asksForFreshCode(error) ? window.dispatchEvent(new Event(FRESH_CODE_EVENT)) : undefined),
        }),
      }),
  );
  const [trpcClient] = useState(() => trpc.createClient({ links: [httpBatchLink({ url: "/api/trpc", transformer: superjson })] }));
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}
