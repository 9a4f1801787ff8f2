package io.gantry.service.support.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Bearer tokens signed with the test key ({@code gantry-test-jwt/private.pem}), which the services' {@code %test}
 * profile trusts: {@code given().auth().oauth2(TestTokens.user("alice"))}. Plain JDK (RS256), so that tests outside
 * Quarkus (system-tests, browser-tests) can sign the same way.
 */
public final class TestTokens {

    public static final String ISSUER = "gantry";

    private TestTokens() {
    }

    public static String user(String name) {
        return token(name, List.of(Roles.USER));
    }

    public static String operator() {
        return token("ops", List.of(Roles.OPERATOR));
    }

    public static String admin() {
        return token("root", List.of(Roles.ADMIN, Roles.OPERATOR, Roles.USER));
    }

    public static String token(String subject, List<String> groups) {
        long now = Instant.now().getEpochSecond();
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\"}";
        String claims = "{\"iss\":\"" + ISSUER + "\",\"sub\":\"" + subject + "\",\"upn\":\"" + subject + "\",\"iat\":" + now
                + ",\"exp\":" + (now + 3600) + ",\"groups\":["
                + groups.stream().map(g -> "\"" + g + "\"").collect(Collectors.joining(",")) + "]}";
        String signed = b64(header.getBytes(StandardCharsets.UTF_8)) + "." + b64(claims.getBytes(StandardCharsets.UTF_8));
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(privateKey());
            s.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + b64(s.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The test public key, as a file a service started as its own process can be given. */
    public static Path publicKeyFile(Path dir) {
        try (InputStream in = resource("public.pem")) {
            Path f = dir.resolve("gantry-test-jwt-public.pem");
            Files.write(f, in.readAllBytes());
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PrivateKey privateKey() throws GeneralSecurityException {
        try (InputStream in = resource("private.pem")) {
            String pem = new String(in.readAllBytes(), StandardCharsets.US_ASCII)
                    .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = TestTokens.class.getClassLoader().getResourceAsStream("gantry-test-jwt/" + name);
        if (in == null) {
            throw new IllegalStateException("gantry-test-jwt/" + name + " is not on the test class path");
        }
        return in;
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
