package io.gantry.service.support.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
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
        return signed(claims(subject, groups, now, now + 3600), testKey());
    }

    /**
     * A token of role {@code user}, signed with the test key, whose {@code exp} passed ten minutes ago (well past
     * smallrye-jwt's clock skew allowance, 60 s by default).
     */
    public static String expired(String user) {
        long now = Instant.now().getEpochSecond();
        return signed(claims(user, List.of(Roles.USER), now - 4200, now - 600), testKey());
    }

    /** A token of role {@code user}, valid for an hour, but signed with a key of its own that no service trusts. */
    public static String signedWithAnotherKey(String user) {
        long now = Instant.now().getEpochSecond();
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return signed(claims(user, List.of(Roles.USER), now, now + 3600), g.generateKeyPair().getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String claims(String subject, List<String> groups, long issuedAt, long expires) {
        return "{\"iss\":\"" + ISSUER + "\",\"sub\":\"" + subject + "\",\"upn\":\"" + subject + "\",\"iat\":" + issuedAt
                + ",\"exp\":" + expires + ",\"groups\":["
                + groups.stream().map(g -> "\"" + g + "\"").collect(Collectors.joining(",")) + "]}";
    }

    private static String signed(String claims, PrivateKey key) {
        String header = "{\"alg\":\"RS256\",\"typ\":\"JWT\"}";
        String signed = b64(header.getBytes(StandardCharsets.UTF_8)) + "." + b64(claims.getBytes(StandardCharsets.UTF_8));
        try {
            Signature s = Signature.getInstance("SHA256withRSA");
            s.initSign(key);
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

    private static PrivateKey testKey() {
        try (InputStream in = resource("private.pem")) {
            String pem = new String(in.readAllBytes(), StandardCharsets.US_ASCII)
                    .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
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
