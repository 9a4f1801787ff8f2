package io.gantry.scheduling.gpushare;

/**
 * One run of the FGD protocol, sampled at every whole percent of arrived GPU requests (0..{@code maxPercent}):
 * the GPU allocation ratio (allocated ÷ cluster GPU-milli) and the fragmentation (Σ_n F_n(M) of the paper's target
 * workload, as a share of the cluster's GPU-milli and of its idle GPU-milli), all in percent.
 */
public record FragCurve(double[] allocPct, double[] fragPct, double[] fragOfIdlePct, int arrivedPods, int placedPods,
                        double wallS) {

    public int maxPercent() {
        return allocPct.length - 1;
    }

    /** The allocation ratio once arrived requests reached {@code percent} of the cluster. */
    public double allocAt(int percent) {
        return allocPct[percent];
    }
}
