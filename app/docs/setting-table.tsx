// The docs' table of settings: what each governs, its environment variable, its default.
/** What a setting governs, its environment variable, and its default. */
export function SettingTable({ what, rows }: { what: string; rows: readonly (readonly [string, string, string])[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>{what}</th>
          <th>setting</th>
          <th>default</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([governs, setting, fallback]) => (
          <tr key={setting}>
            <td>{governs}</td>
            <td>
              <code>{setting}</code>
            </td>
            <td>{fallback}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
