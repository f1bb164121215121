/**
 * A bar chart as a table: each row a label, a bar (drawn, hidden from screen readers) and the
 * amount in words, so the chart reads as the same figures with or without sight. Plain CSS bars,
 * their length a share of the largest amount; logical properties, so bars grow from the start
 * edge in right-to-left languages too.
 */
import type { CostUnit } from '../../../shared/domain/task-cost';
import { formatCost } from '../../lib/cost-text';

export interface CostBar {
  readonly key: string;
  readonly label: string;
  readonly micros: number;
}

export function CostBars({
  caption,
  unit,
  bars,
}: {
  caption: string;
  unit: CostUnit;
  bars: readonly CostBar[];
}) {
  const largest = Math.max(1, ...bars.map((bar) => bar.micros));
  return (
    <table className="cost-bars">
      <caption>{caption}</caption>
      <tbody>
        {bars.map((bar) => (
          <tr key={bar.key}>
            <th scope="row" className="cost-bars__label">
              {bar.label}
            </th>
            <td className="cost-bars__track" aria-hidden="true">
              <span
                className="cost-bars__bar"
                style={{ inlineSize: `${Math.max(1, (bar.micros / largest) * 100)}%` }}
              />
            </td>
            <td className="cost-bars__amount">{formatCost(bar.micros, unit)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
