// The words both tabs' charts share (the what-if chart and the session's): one axis and series vocabulary,
// localized by the host, so that a series is called the same in both.

export interface ChartWords {
  time: string;
  healthAxis: string;
  durationAxis: string;
  health: string;
  threshold: string;
  duration: string;
  failed: string;
}
