// Sample requests and answers of the REST surface as API.md shows them: the OpenAPI document's examples and the docs' bodies.

export const customerExample = {
  fullName: "Ada Obi",
  mobileNumber: "08012345678",
  email: "ada@example.com",
  currency: "NGN",
  country: "NG",
} as const;

const urls = {
  callbackUrl: "https://shop.example.ng/owo/callback",
  redirectUrl: "https://shop.example.ng/thanks",
} as const;

/** The initiation bodies, in API.md's field order; publicKey is the caller's own. */
export function ussdRequestExample(publicKey: string) {
  return {
    publicKey,
    amount: "1500",
    ...customerExample,
    paymentReference: "ord-1001",
    ...urls,
    paymentType: "USSD",
    bankCode: "044",
  } as const;
}

export function transferRequestExample(publicKey: string) {
  return { publicKey, amount: "1500", ...customerExample, paymentReference: "ord-1002", ...urls, paymentType: "TRANSFER" } as const;
}

export const tokenAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Successful",
    EncryptedSecKey: { encryptedKey: "owo_test_3q2-7wYv0mQx…", expiresAt: "2026-11-22T09:00:00.000Z" },
  },
};

export const ussdAnswerExample = {
  status: "SUCCESS",
  data: {
    code: null,
    message: null,
    payments: {
      paymentReference: "ord-1001",
      linkingReference: "OWO72462256161858087",
      providerreference: "48213906",
      ussdDailCode: "*901*000*48213906#",
      amount: "1500.00",
      expiresAt: "2026-11-21T10:10:00.000Z",
      checkoutUrl: "https://pay.example.ng/checkout/OWO72462256161858087",
    },
  },
};

export const transferAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "ACCOUNT OPENED SUCCESSFULLY",
    payments: {
      paymentReference: "ord-1002",
      walletName: "OWO(Demo Store)",
      wallet: "9979878245",
      bankName: "Owo Sandbox Bank",
      accountNumber: "9979878245",
      linkingReference: "OWO72462256161858088",
      amount: "1500.00",
      expiresAt: "2026-11-21T10:30:00.000Z",
      checkoutUrl: "https://pay.example.ng/checkout/OWO72462256161858088",
    },
  },
};

/** Verify's `payments` object for ord-1002 once the sandbox bank paid it in full. */
export const paidTransferExample = {
  paymentReference: "ord-1002",
  linkingReference: "OWO72462256161858088",
  paymentType: "TRANSFER",
  status: "SUCCESSFUL",
  amount: "1500.00",
  amountPaid: "1500.00",
  amountToRefund: "0.00",
  amountRefunded: "0.00",
  currency: "NGN",
  country: "NG",
  mode: "test",
  gatewayMessage: "Successful",
  gatewayCode: "00",
  provider: "sandbox",
  feeAmount: "22.50",
  settlementId: null,
  createdAt: "2026-11-21T10:00:00.000Z",
  paidAt: "2026-11-21T10:03:12.000Z",
  expiresAt: "2026-11-21T10:30:00.000Z",
  updatedAt: "2026-11-21T10:03:12.000Z",
};

/** The same for ord-1001, the USSD payment, once the customer's bank debited them. */
export const paidUssdExample = {
  ...paidTransferExample,
  paymentReference: "ord-1001",
  linkingReference: "OWO72462256161858087",
  paymentType: "USSD",
  expiresAt: "2026-11-21T10:10:00.000Z",
};

export const verifyAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Successful",
    payments: paidTransferExample,
    customers: { customerName: "Ada Obi", customerMobile: "08012345678", customerEmail: "ada@example.com" },
  },
};

/** The answer to cancelling ord-1003, a USSD payment nobody had paid yet. */
export const cancelAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "S13",
    message: "Transaction cancelled",
    payments: {
      ...paidUssdExample,
      paymentReference: "ord-1003",
      linkingReference: "OWO72462256161858089",
      status: "CANCELLED",
      amountPaid: "0.00",
      gatewayMessage: "Transaction cancelled",
      paidAt: null,
      updatedAt: "2026-11-21T10:04:00.000Z",
    },
    customers: { customerName: "Ada Obi", customerMobile: "08012345678", customerEmail: "ada@example.com" },
  },
};

/** Refunding part of ord-1002 (paid in full); the answer is always PENDING: the provider pays it back after. */
export const refundRequestExample = { amount: "500.00", reason: "One item out of stock", refundReference: "rf-ord-1002-1" };

export const refundAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Refund accepted",
    refund: {
      refundReference: "rf-ord-1002-1",
      amount: "500.00",
      status: "PENDING",
      reason: "One item out of stock",
      createdAt: "2026-11-21T11:00:00.000Z",
    },
  },
};

export const refundStatusAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Successful",
    refund: {
      refundReference: "rf-ord-1002-1",
      amount: "500.00",
      status: "PROCESSED",
      reason: "One item out of stock",
      createdAt: "2026-11-21T11:00:00.000Z",
    },
  },
};

export const refundAccountRequestExample = { bankCode: "058", accountNumber: "0123456785" };

export const refundAccountAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Refund sent again to the customer's account",
    refund: { ...refundStatusAnswerExample.data.refund, refundReference: "rf-ord-1003-1", status: "PENDING" },
  },
};

export const refundCancelAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Refund given up",
    refund: { ...refundStatusAnswerExample.data.refund, refundReference: "rf-ord-1003-1", status: "FAILED" },
  },
};

export const simulateAnswerExample = {
  status: "SUCCESS",
  data: { code: "00", message: "Successful", payments: paidTransferExample },
};

export const simulateUssdAnswerExample = {
  status: "SUCCESS",
  data: { code: "00", message: "Successful", payments: paidUssdExample },
};

export const banksAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Successful",
    banks: [
      { bankCode: "044", bankName: "Access Bank", ussdCode: "*901#", supportsUssd: true },
      { bankCode: "058", bankName: "Guaranty Trust Bank", ussdCode: "*737#", supportsUssd: true },
    ],
  },
};

/** The body seerbit-nodejs's StandardCheckout.Initialize sends for its own sample (amount and reference as numbers). */
export const standardCheckoutRequestExample = (publicKey: string) => ({
  amount: 100,
  callbackUrl: "www.testapp.com",
  country: "NG",
  currency: "NGN",
  email: "testmerchant@mailinator.com",
  paymentReference: 1763805600000,
  productDescription: null,
  productId: null,
  publicKey,
  hash: "9f2c…",
  hashType: "sha256",
});

export const standardCheckoutAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Successful",
    payments: {
      redirectLink: "https://pay.example.ng/checkout/OWO72462256161858090",
      paymentStatus: "08",
      paymentReference: "1763805600000",
      linkingReference: "OWO72462256161858090",
      expiresAt: "2026-11-21T10:30:00.000Z",
    },
  },
};

/** Verify of that standard-checkout payment before its customer chose a channel. */
export const standardCheckoutVerifyExample = {
  status: "SUCCESS",
  data: {
    code: "S20",
    message: "Transaction is pending",
    payments: {
      ...paidTransferExample,
      paymentReference: "1763805600000",
      linkingReference: "OWO72462256161858090",
      paymentType: null,
      status: "PENDING",
      amount: "100.00",
      amountPaid: "0.00",
      gatewayMessage: "Transaction is pending",
      gatewayCode: "S20",
      provider: null,
      paidAt: null,
      updatedAt: "2026-11-21T10:00:00.000Z",
    },
    customers: { customerName: "", customerMobile: "", customerEmail: "testmerchant@mailinator.com" },
  },
};

export const merchantBanksAnswerExample = {
  status: "SUCCESS",
  data: {
    code: "00",
    message: "Successful",
    merchantBanks: [
      { bankCode: "044", bankName: "Access Bank", ussdCode: "*901#", supportsUssd: true, status: "ACTIVE", minimumAmount: "100.00" },
      {
        bankCode: "058",
        bankName: "Guaranty Trust Bank",
        ussdCode: "*737#",
        supportsUssd: true,
        status: "ACTIVE",
        minimumAmount: "100.00",
      },
    ],
  },
};

export const fieldErrorAnswerExample = {
  status: "ERROR",
  data: {
    code: "S5",
    message: "Invalid/Missing parameters = email, mobileNumber",
    errors: [
      { field: "email", message: "must be an e-mail address, e.g. ada@example.com" },
      { field: "mobileNumber", message: "must be 7 to 15 digits, optionally after a leading +, e.g. 08012345678 or +2348012345678" },
    ],
  },
};
