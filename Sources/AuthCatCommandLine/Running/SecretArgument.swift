import AuthCatCore

/// Refuses a command line that holds an otpauth URI, whatever the command: a
/// URI copied from a QR reader and pasted as an argument (`authcat add
/// 'otpauth://…'`) would otherwise become an account's name, a file name
/// echoed in an error, or a note, its secret then shown by `list`, kept in
/// the history and synced. Arguments are never the place for a secret (other
/// users see them in the process list), so no command takes one, and the
/// message never repeats it.
enum SecretArgument {
    /// The message for a command line with a URI that carries a secret, or nil.
    static func refusal(in arguments: [String]) -> String? {
        guard arguments.contains(where: OTPAuthURI.carriesSecret) else { return nil }
        return "an argument is an otpauth:// URI, which holds its secret: other users can read arguments "
            + "in the process list, and your shell keeps them in its history; pipe the URI in instead: "
            + "… | authcat add --uri (one account), or … | authcat import - (several)"
    }
}
