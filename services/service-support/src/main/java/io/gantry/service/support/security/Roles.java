package io.gantry.service.support.security;

import io.quarkus.security.identity.SecurityIdentity;

/**
 * The three roles a Gantry bearer token may carry in its {@code groups} claim (see the README's "Security" section):
 * {@code user} acts on its own jobs, usage and priority; {@code operator} reads everything; {@code admin} changes
 * what the services do (channel pause and resume, priorities, weights). An admin is not implicitly an operator: the
 * tokens {@code ./gantry up} issues list every role they grant.
 */
public final class Roles {

    public static final String USER = "user";
    public static final String OPERATOR = "operator";
    public static final String ADMIN = "admin";

    private Roles() {
    }

    /** Whether {@code identity} reads every user's data (an operator or an admin). */
    public static boolean readsAll(SecurityIdentity identity) {
        return identity.hasRole(OPERATOR) || identity.hasRole(ADMIN);
    }

    /** Whether {@code identity} may read what belongs to {@code owner}: its own, or any as an operator or admin. */
    public static boolean mayRead(SecurityIdentity identity, String owner) {
        return readsAll(identity) || (!identity.isAnonymous() && identity.getPrincipal().getName().equals(owner));
    }
}
