// The kubernetes-mixin's PLEG alert, the only one the community ships, as a Prometheus rule file: for the
// tests that hold ours against it (promtool on a recorded window, test/unit/deploy/prometheus; the real
// Prometheus in the 1.26 fault window, test/integration/realk8s/alertLeadTimes.ts).
//
// kubernetes-monitoring/kubernetes-mixin: rules/kubelet.libsonnet (the recording rule, one per quantile;
// 0.99 is the one the alert reads) and alerts/kubelet.libsonnet (KubeletPlegDurationHigh), with the
// mixin's defaults kubeletSelector `job="kubelet"` and clusterLabel `cluster` filled in.
export const MIXIN_RULES = `groups:
  - name: kubelet.rules
    rules:
      - record: node_quantile:kubelet_pleg_relist_duration_seconds:histogram_quantile
        expr: |
          histogram_quantile(
            0.99,
            sum(rate(kubelet_pleg_relist_duration_seconds_bucket{job="kubelet"}[5m])) by (cluster, instance, le)
            * on(cluster, instance) group_left (node)
            max by (cluster, instance, node) (kubelet_node_name{job="kubelet"})
          )
        labels:
          quantile: "0.99"
  - name: kubernetes-system-kubelet
    rules:
      - alert: KubeletPlegDurationHigh
        expr: |
          node_quantile:kubelet_pleg_relist_duration_seconds:histogram_quantile{quantile="0.99"} >= 10
        for: 5m
        labels:
          severity: warning
        annotations:
          description: 'The Kubelet Pod Lifecycle Event Generator has a 99th percentile duration of {{ $value }} seconds on node {{ $labels.node }}.'
          summary: 'Kubelet Pod Lifecycle Event Generator is taking too long to relist.'
`;
