import { describe, expect, it } from 'vitest';
import { KubeletVersionError, plegMetricNames, profileForKubeletVersion, parseKubeletVersion } from '../../../../src/core/pleg/profiles';

describe('kubelet version → PLEG profile', () => {
  it.each([
    ['v1.9.11', '1.13'],
    ['v1.13.12', '1.13'],
    ['v1.14.0', '1.14-1.25'],
    ['v1.22.1', '1.14-1.25'],
    ['1.25.16', '1.14-1.25'],
    ['v1.26.7', '1.26-1.31'],
    ['v1.29.6+k3s1', '1.26-1.31'],
    ['v1.31.12', '1.26-1.31'],
    ['v1.32.10-kubeedge1', '1.32+'],
    ['v1.34.0-eks-1a2b3c', '1.32+'],
    ['1.33', '1.32+'],
    ['v1.35.4', '1.32+'],
    ['v1.36.2', '1.36+'],
    ['1.37.0-alpha.1', '1.36+'],
  ])('%s → %s', (version, id) => {
    expect(profileForKubeletVersion(version).id).toBe(id);
  });

  it('rejects what is not a kubelet version, naming the input', () => {
    expect(() => parseKubeletVersion('latest')).toThrow(KubeletVersionError);
    expect(() => parseKubeletVersion('v2.0.0')).toThrow(/"v2\.0\.0"/u);
  });

  it('encodes the version differences', () => {
    const p113 = profileForKubeletVersion('v1.13.0');
    const p125 = profileForKubeletVersion('v1.25.0');
    const p131 = profileForKubeletVersion('v1.31.0');
    const p132 = profileForKubeletVersion('v1.32.0');
    expect([p113.blockingSend, p125.blockingSend]).toEqual([true, false]);
    expect([p131.cacheOptional, p132.cacheOptional]).toEqual([true, false]);
    expect([p131.twoPassReinspection, p132.twoPassReinspection]).toEqual([true, false]);
    expect([p125.eventedCreatedAtUnit, p131.eventedCreatedAtUnit, p132.eventedCreatedAtUnit]).toEqual([null, 'seconds', 'nanoseconds']);
    expect(profileForKubeletVersion('v1.12.0').yetToBeSuccessfulText).toBe(false);
    const p135 = profileForKubeletVersion('v1.35.0');
    const p136 = profileForKubeletVersion('v1.36.0');
    expect([p135.podSyncOnReinspection, p136.podSyncOnReinspection]).toEqual([false, true]);
    expect([p135.cacheStampIsPodReadTime, p136.cacheStampIsPodReadTime]).toEqual([false, true]);
    expect([p135.hasConditionMet, p136.hasConditionMet]).toEqual([true, false]);
    expect([p135.onDemandRelist, p136.onDemandRelist]).toEqual([null, { gateDefault: true }]);
  });

  it('names the PLEG metrics each version exposes', () => {
    expect(plegMetricNames(13)).toMatchObject({
      relistDuration: null,
      legacyRelistLatencyMicroseconds: 'kubelet_pleg_relist_latency_microseconds',
      discardEvents: null,
      lastSeen: null,
    });
    expect(plegMetricNames(14)).toMatchObject({ relistDuration: 'kubelet_pleg_relist_duration_seconds', relistInterval: null, discardEvents: 'kubelet_pleg_discard_events' });
    expect(plegMetricNames(18)).toMatchObject({ lastSeen: 'kubelet_pleg_last_seen_seconds', legacyRelistLatencyMicroseconds: null });
    expect(plegMetricNames(26).eventedConnectionErrors).toBeNull();
    expect(plegMetricNames(27).eventedConnectionErrors).toBe('kubelet_evented_pleg_connection_error_count');
    expect([plegMetricNames(35).podRelistDuration, plegMetricNames(36).podRelistDuration]).toEqual([null, 'kubelet_pleg_pod_relist_duration_seconds']);
  });
});
