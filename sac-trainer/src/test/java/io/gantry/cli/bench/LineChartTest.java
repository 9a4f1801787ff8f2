package io.gantry.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineChartTest {

    /** The legend's swatch of series {@code i}: a horizontal line right of the plot (900 wide, 200 of legend). */
    private static int swatchPixelsOfColour(BufferedImage img, int i, int rgb) {
        int y = 50 + 12 + i * 20;
        int n = 0;
        for (int x = 900 - 200 + 12; x <= 900 - 200 + 30; x++) {
            if ((img.getRGB(x, y) & 0xffffff) == rgb) {
                n++;
            }
        }
        return n;
    }

    @Test
    void seriesPastThePaletteRepeatItsColoursDashedSoNoTwoLookAlike(@TempDir Path dir) throws Exception {
        LineChart chart = new LineChart("lag", "t", "records", false);
        for (int i = 0; i < 11; i++) {
            chart.add(new LineChart.Series("group " + i, new double[] {0, 1}, new double[] {i, i + 1}));
        }
        Path png = dir.resolve("chart.png");
        chart.write(png);
        BufferedImage img = ImageIO.read(png.toFile());
        int first = 0x1f77b4;
        int solid = swatchPixelsOfColour(img, 0, first);
        int dashed = swatchPixelsOfColour(img, 10, first);
        assertEquals(19, solid, "the first series' swatch is one solid line of its colour");
        assertTrue(dashed > 0 && dashed < solid - 4,
                "the eleventh series has the first one's colour but with gaps: " + dashed + " of " + solid + " pixels");
    }

    /**
     * A fitted y axis spreads a curve whose changes are small against its level over the plot's height: the same
     * 0.2 % wiggle drawn from zero stays within a few pixel rows.
     */
    @Test
    void aFittedAxisShowsSmallChangesThatAZeroBasedOneFlattens(@TempDir Path dir) throws Exception {
        double[] x = {0, 1, 2, 3};
        double[] y = {1704.8, 1707.6, 1705.0, 1705.2};
        LineChart zero = new LineChart("v", "episode", "s", false);
        zero.add(new LineChart.Series("validation", x, y));
        LineChart fitted = new LineChart("v", "episode", "s", false).fitY();
        fitted.add(new LineChart.Series("validation", x, y));
        zero.write(dir.resolve("zero.png"));
        fitted.write(dir.resolve("fitted.png"));
        assertTrue(rowsWithColour(ImageIO.read(dir.resolve("zero.png").toFile()), 0x1f77b4) < 10);
        assertTrue(rowsWithColour(ImageIO.read(dir.resolve("fitted.png").toFile()), 0x1f77b4) > 300);
    }

    /** Pixel rows of the plot area (left of the legend) holding the colour. */
    private static int rowsWithColour(BufferedImage img, int rgb) {
        int rows = 0;
        for (int y = 50; y < 560 - 60; y++) {
            for (int x = 80; x < 900 - 200; x++) {
                if ((img.getRGB(x, y) & 0xffffff) == rgb) {
                    rows++;
                    break;
                }
            }
        }
        return rows;
    }

    /** Episodes are whole: 0 to 16 is ticked at 0, 4, 8, 12 and 16, not at 3.2 of an episode. */
    @Test
    void wholeXTicksOnlyWholeNumbers(@TempDir Path dir) throws Exception {
        double[] x = new double[17];
        double[] y = new double[17];
        for (int i = 0; i <= 16; i++) {
            x[i] = i;
            y[i] = 1;
        }
        LineChart whole = new LineChart("v", "episode", "s", false).wholeX();
        whole.add(new LineChart.Series("validation", x, y));
        LineChart even = new LineChart("v", "episode", "s", false);
        even.add(new LineChart.Series("validation", x, y));
        whole.write(dir.resolve("whole.png"));
        even.write(dir.resolve("even.png"));
        int pw = 900 - 80 - 200;
        assertEquals(java.util.List.of(80, 80 + pw / 4, 80 + pw / 2, 80 + 3 * pw / 4, 80 + pw),
                gridColumns(ImageIO.read(dir.resolve("whole.png").toFile())));
        assertEquals(6, gridColumns(ImageIO.read(dir.resolve("even.png").toFile())).size());
    }

    /** Columns where a vertical grid line (or the frame) crosses a pixel row just below the plot's top. */
    private static java.util.List<Integer> gridColumns(BufferedImage img) {
        java.util.List<Integer> cols = new java.util.ArrayList<>();
        for (int x = 80; x <= 900 - 200; x++) {
            int rgb = img.getRGB(x, 53) & 0xffffff;
            if (rgb == 0xdddddd || rgb == 0) {
                cols.add(x);
            }
        }
        return cols;
    }
}
