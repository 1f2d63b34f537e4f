// What Owo POSTs to a merchant's callbackUrl, as API.md "Callbacks" shows it: the docs' sample bodies.
/** A callback's body (API.md "Callbacks") for the docs: what a receiver verifies and reads. */
export const callbackExample = {
  notificationItems: [
    {
      notificationRequestItem: {
        eventType: "transaction",
        eventId: "evt_5b1f0c9e2d7a4e8f9a0b1c2d",
        eventDate: "2026-11-21T10:03:12.000Z",
        data: {
          event: "payment.successful",
          sequence: 2,
          paymentReference: "ord-1001",
          linkingReference: "OWO72462256161858087",
          paymentType: "USSD",
          status: "SUCCESSFUL",
          code: "00",
          amount: "1500.00",
          amountPaid: "1500.00",
          amountToRefund: "0.00",
          currency: "NGN",
          mode: "test",
          updatedAt: "2026-11-21T10:03:12.000Z",
          fullname: "Ada Obi",
          email: "ada@example.com",
          mobile: "08012345678",
          reference: "ord-1001",
          gatewayCode: "00",
          gatewayMessage: "Successful",
          publicKey: "pk_test_3f9a1c0d5e7b2a4c6e8f0a1b2c3d4e5f",
          provider: "sandbox",
          amountRefunded: "0.00",
          feeAmount: "22.50",
          settlementId: null,
        },
      },
    },
  ],
};

/** ord-1001's refund of 500.00 paid back: a refund event carries `refund`, and amountRefunded counts it. */
export const refundCallbackExample = {
  notificationItems: [
    {
      notificationRequestItem: {
        ...callbackExample.notificationItems[0]!.notificationRequestItem,
        eventId: "evt_9c2e4a1f7b3d5e6f8a0b2c4d",
        eventDate: "2026-11-21T11:00:02.000Z",
        data: {
          ...callbackExample.notificationItems[0]!.notificationRequestItem.data,
          event: "refund.processed",
          sequence: 4,
          updatedAt: "2026-11-21T11:00:02.000Z",
          amountRefunded: "500.00",
          refund: { refundReference: "rf-ord-1001-1", amount: "500.00", status: "PROCESSED", reason: "One item out of stock" },
        },
      },
    },
  ],
};
