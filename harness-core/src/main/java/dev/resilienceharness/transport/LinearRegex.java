package dev.resilienceharness.transport;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressionFactory;
import org.apiguardian.api.API;

/**
 * The regex engine for every pattern a cassette or a yaml brings: RE2/J matches in time linear in the input, so a
 * pattern such as {@code ^([a-z0-9]+[-_]?){1,50}$} cannot stall a build on arguments a provider returned. It has no
 * lookaround and no backreferences; a pattern that needs them is refused when it is read.
 */
@API(status = INTERNAL, since = "0.1.0")
public final class LinearRegex implements RegularExpressionFactory {

    /** The one instance: it holds nothing. */
    public static final LinearRegex FACTORY = new LinearRegex();

    private LinearRegex() {
    }

    /** Why RE2/J cannot compile {@code regex}, or {@code null} when it can. */
    public static String problem(String regex) {
        try {
            Pattern.compile(regex);
            return null;
        } catch (PatternSyntaxException e) {
            return e.getDescription();
        }
    }

    @Override
    public RegularExpression getRegularExpression(String regex) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            // The library reports an exception as a schema that cannot be used, never as a slow match.
            throw new IllegalArgumentException("a pattern the linear-time regex engine cannot run: " + regex, e);
        }
        return text -> pattern.matcher(text).find();
    }
}
