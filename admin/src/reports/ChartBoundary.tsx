import { Component, type ReactNode } from 'react';

/**
 * Keeps a chart that fails to draw from taking the report down with it: the table still shows,
 * the chart's place shows `fallback`.
 */
export class ChartBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
