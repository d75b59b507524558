import React, { forwardRef, memo, useCallback, useEffect, useMemo, useState } from "react";
import type { FC, ReactNode } from "react";
import styles from "./Dashboard.module.css";
import { fetchJSON } from "../api/client";
import * as charts from "@acme/charts";

/** Metric is one number on the dashboard. */
export interface Metric {
  id: string;
  label: string;
  value: number;
}

type Props<T extends Metric> = {
  title: string;
  metrics: T[];
  /** onSelect is called with the clicked metric. */
  onSelect?(metric: T): void;
  children?: ReactNode;
};

export enum Trend {
  Up = "up",
  Down = "down",
}

// trendOf compares two values.
export const trendOf = (a: number, b: number): Trend => (a >= b ? Trend.Up : Trend.Down);

/**
 * useMetrics loads metrics and refreshes them every interval.
 */
export function useMetrics<T extends Metric>(url: string, interval = 30_000) {
  const [data, setData] = useState<T[]>([]);
  useEffect(() => {
    const load = () => fetchJSON<T[]>(url).then(setData);
    load();
    const id = window.setInterval(load, interval);
    return () => window.clearInterval(id);
  }, [url, interval]);
  return data;
}

// A generic arrow component needs <T,> in a .tsx file.
const MetricList = <T extends Metric,>({ metrics, onSelect }: Props<T>) => {
  const sorted = useMemo(() => [...metrics].sort(byValue), [metrics]);
  return (
    <ul className={styles.list}>
      {sorted.map((m) => (
        <li key={m.id} onClick={() => onSelect?.(m)}>
          {m.label}: {format(m.value)}
        </li>
      ))}
    </ul>
  );
};

/** Row renders one metric; memo skips unchanged rows. */
export const Row = memo(
  forwardRef<HTMLLIElement, { metric: Metric }>(function Row({ metric }, ref) {
    return <li ref={ref}>{format(metric.value)}</li>;
  }),
);

function byValue(a: Metric, b: Metric): number {
  return b.value - a.value;
}

function format(n: number): string {
  return new Intl.NumberFormat("en").format(n);
}

/** Panel frames a chart. */
export class Panel extends React.Component<{ title: string; children?: ReactNode }> {
  static defaultProps = { title: "Untitled" };

  state = { collapsed: false };

  toggle = () => this.setState(({ collapsed }) => ({ collapsed: !collapsed }));

  render() {
    const { title, children } = this.props;
    return (
      <section>
        <h2 onClick={this.toggle}>{title}</h2>
        {this.state.collapsed ? null : children}
      </section>
    );
  }
}

/**
 * Dashboard shows all metrics of a team.
 */
const Dashboard: FC<{ team: string }> = ({ team }) => {
  const metrics = useMetrics<Metric>(`/api/teams/${team}/metrics`);
  const [selected, setSelected] = useState<Metric | null>(null);
  const select = useCallback((m: Metric) => setSelected(m), []);
  const chart = charts.line(metrics.map((m) => m.value));

  return (
    <Panel title={`Team ${team}`}>
      <MetricList metrics={metrics} onSelect={select} />
      {selected && <p>{selected.label}</p>}
      <div dangerouslySetInnerHTML={{ __html: chart.toSVG() }} />
    </Panel>
  );
};

export default Dashboard;
