package io.gantry.cli.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/** A minimal PNG line chart (java.awt, headless): enough for JCT CDFs and allocation-over-time plots, no plotting dependency. */
public final class LineChart {

    public record Series(String name, double[] x, double[] y) {
    }

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
            new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
            new Color(0xbcbd22), new Color(0x17becf)};
    /** Series past the palette's length repeat its colours dashed, so no two series look alike. */
    private static final BasicStroke SOLID = new BasicStroke(2f);
    private static final BasicStroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] {6f, 4f}, 0f);
    private static final int W = 900;
    private static final int H = 560;
    private static final int LEFT = 80;
    private static final int RIGHT = 200;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final List<Series> series = new ArrayList<>();
    private boolean fitY;
    private boolean wholeX;

    public LineChart(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    public void add(Series s) {
        series.add(s);
    }

    /**
     * Fits the y axis to the data (5 % margin) instead of starting it at 0: for a curve whose changes are small
     * against its level (validation JCT per episode), which a zero-based axis draws as a flat line.
     */
    public LineChart fitY() {
        fitY = true;
        return this;
    }

    /** Ticks the x axis at whole numbers only (episodes), never at 3.2 of one. */
    public LineChart wholeX() {
        wholeX = true;
        return this;
    }

    public void write(Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        double[] range = ranges();
        double minX = range[0];
        double maxX = range[1];
        double minY = range[2];
        double maxY = range[3];
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 30);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawRect(LEFT, TOP, pw, ph);
        for (double fx : xTicks(minX, maxX)) {
            int px = LEFT + (int) Math.round((fx - minX) / (maxX - minX) * pw);
            g.setColor(new Color(0xdddddd));
            g.drawLine(px, TOP, px, TOP + ph);
            g.setColor(Color.BLACK);
            String label = wholeX && !logX ? String.format(java.util.Locale.ROOT, "%.0f", fx) : fmt(logX ? Math.pow(10, fx) : fx);
            g.drawString(label, px - g.getFontMetrics().stringWidth(label) / 2, TOP + ph + 18);
        }
        for (int k = 0; k <= 5; k++) {
            double fy = minY + (maxY - minY) * k / 5;
            int py = TOP + ph - ph * k / 5;
            g.setColor(new Color(0xdddddd));
            g.drawLine(LEFT, py, LEFT + pw, py);
            g.setColor(Color.BLACK);
            g.drawString(fitY ? tick(fy, maxY - minY) : fmt(fy), 10, py + 4);
        }
        g.drawString(xLabel + (logX ? " (log scale)" : ""), LEFT + pw / 2 - 60, H - 15);
        g.drawString(yLabel, 10, TOP - 10);
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            g.setColor(PALETTE[si % PALETTE.length]);
            g.setStroke(si < PALETTE.length ? SOLID : DASHED);
            int prevX = -1;
            int prevY = -1;
            for (int i = 0; i < s.x.length; i++) {
                double x = tx(s.x[i]);
                if (!Double.isFinite(x)) {
                    continue;
                }
                int px = LEFT + (int) Math.round((x - minX) / (maxX - minX) * pw);
                int py = TOP + ph - (int) Math.round((s.y[i] - minY) / (maxY - minY) * ph);
                if (prevX >= 0) {
                    g.drawLine(prevX, prevY, px, py);
                }
                prevX = px;
                prevY = py;
            }
            g.drawLine(W - RIGHT + 12, TOP + 12 + si * 20, W - RIGHT + 30, TOP + 12 + si * 20);
            g.drawString(s.name, W - RIGHT + 35, TOP + 16 + si * 20);
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    /** {minX, maxX, minY, maxY} of the plot: x as transformed, y from 0 unless {@link #fitY}, never empty. */
    private double[] ranges() {
        double minX = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x.length; i++) {
                double x = tx(s.x[i]);
                if (Double.isFinite(x)) {
                    minX = Math.min(minX, x);
                    maxX = Math.max(maxX, x);
                }
                minY = Math.min(minY, s.y[i]);
                maxY = Math.max(maxY, s.y[i]);
            }
        }
        if (!(maxX > minX)) {
            maxX = minX + 1;
        }
        if (fitY) {
            double margin = maxY > minY ? (maxY - minY) * 0.05 : Math.max(1, Math.abs(maxY) * 0.01);
            minY -= margin;
            maxY += margin;
        } else {
            minY = Math.min(0, minY);
        }
        if (!(maxY > minY)) {
            maxY = minY + 1;
        }
        return new double[] {minX, maxX, minY, maxY};
    }

    /** Six evenly spaced x ticks, or with {@link #wholeX} whole numbers a whole step apart from the first. */
    private double[] xTicks(double minX, double maxX) {
        if (!wholeX || logX) {
            double[] t = new double[6];
            for (int k = 0; k <= 5; k++) {
                t[k] = minX + (maxX - minX) * k / 5;
            }
            return t;
        }
        double step = Math.max(1, Math.ceil((maxX - minX) / 5));
        double first = Math.ceil(minX);
        int n = (int) Math.floor((maxX - first) / step) + 1;
        double[] t = new double[n];
        for (int k = 0; k < n; k++) {
            t[k] = first + k * step;
        }
        return t;
    }

    private double tx(double x) {
        return logX ? (x > 0 ? Math.log10(x) : Double.NaN) : x;
    }

    /** A tick of a fitted axis: as many decimals as its span needs, so neighbouring ticks never read the same. */
    private static String tick(double v, double span) {
        int decimals = (int) Math.max(0, Math.min(4, Math.ceil(-Math.log10(span / 5)) + 1));
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String fmt(double v) {
        double a = Math.abs(v);
        if (a >= 1e6) {
            return String.format("%.1fM", v / 1e6);
        }
        if (a >= 1e3) {
            return String.format("%.1fk", v / 1e3);
        }
        return a >= 10 || a == 0 ? String.format("%.0f", v) : String.format("%.2f", v);
    }
}
