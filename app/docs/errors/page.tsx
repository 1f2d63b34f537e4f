import type { Metadata } from "next";
import { fieldErrorAnswerExample } from "@/server/openapi/examples";
import { asJson, CodeBlock } from "../code-block";
import styles from "../docs.module.css";
import { ERROR_CODES, ORDER_OF_CHECKS } from "../error-codes";

export const metadata: Metadata = { title: "Errors" };

export default function ErrorsPage() {
  return (
    <>
      <h1>Errors</h1>
      <p className={styles.lede}>
        Every error, from every route, is one JSON envelope: never an HTML page, never a stack trace. <code>errors</code> is always
        there, <code>[]</code> when no field is at fault, and lists every field at fault when some are.
      </p>
      <CodeBlock label="HTTP 400" code={asJson(fieldErrorAnswerExample)} />
      <p>
        A request that was carried out is <code>SUCCESS</code> even when the payment it reports failed: for verification, the
        payment&apos;s outcome is <code>data.code</code> (<code>00</code> paid, <code>S20</code> pending or partly paid, <code>S12</code>{" "}
        failed, <code>S0</code> expired). Every response carries <code>X-Request-Id</code>; quote it to support.
      </p>

      <h2>Codes</h2>
      <table>
        <thead>
          <tr>
            <th>HTTP</th>
            <th>code</th>
            <th>when</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(ERROR_CODES).map(([code, { http, when }]) => (
            <tr key={code}>
              <td>{http}</td>
              <td>
                <code>{code}</code>
              </td>
              <td>{when}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        One field alone at fault answers with that field&apos;s own code (amount <code>S2</code>, currency <code>S4</code>, country{" "}
        <code>S6</code>, bankCode <code>S8</code>) when it was sent and is wrong; a missing field, bankCode sent with TRANSFER, or
        several faults at once are <code>S5</code>, listing them all.
      </p>

      <h2>Order of checks</h2>
      <p>The checks run in this order, and the first failure answers:</p>
      <ol>
        {ORDER_OF_CHECKS.map((check) => (
          <li key={check}>{check}</li>
        ))}
      </ol>

      <h2>Over tRPC and the typed client</h2>
      <p>
        tRPC errors keep tRPC&apos;s own <code>data.code</code> (<code>BAD_REQUEST</code>, <code>UNAUTHORIZED</code>,{" "}
        <code>FORBIDDEN</code>, <code>NOT_FOUND</code>, <code>CONFLICT</code>, <code>TOO_MANY_REQUESTS</code>) and add{" "}
        <code>data.apiCode</code> (the code above) and <code>data.errors</code> (the same field list). The{" "}
        <a href="/docs/client">typed client</a> turns them into an <code>OwoError</code> with <code>code</code>,{" "}
        <code>httpStatus</code>, <code>message</code> and <code>errors</code>.
      </p>
    </>
  );
}
