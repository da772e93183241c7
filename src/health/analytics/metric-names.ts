/** The metrics of `crmctl analytics`, in help order (apart from their code so the MCP list loads none of it). */
export const METRICS = ['funnel', 'forecast', 'velocity', 'aging', 'slippage', 'coverage', 'scorecard'] as const;
export type Metric = (typeof METRICS)[number];
