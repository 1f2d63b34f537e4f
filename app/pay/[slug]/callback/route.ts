// The callback URL of links whose merchant set none: Owo takes the callback and keeps nothing (webhook endpoints still get every event).
export function POST(): Response {
  return new Response(null, { status: 204 });
}
