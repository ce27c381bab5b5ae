#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <nettle/gcm.h>
#include <nettle/hmac.h>
#include <nettle/md5.h>
#include <nettle/memops.h>
#include <nettle/pbkdf2.h>

/* CBC with AES-256, typed: Swift cannot pass aes256_decrypt where cbc_decrypt
   wants a nettle_cipher_func, whose context is untyped. */
static inline void authcat_aes256_cbc_decrypt(
    const struct aes256_ctx *ctx, uint8_t *iv, size_t length, uint8_t *dst, const uint8_t *src) {
    nettle_cbc_decrypt(ctx, (nettle_cipher_func *)nettle_aes256_decrypt, AES_BLOCK_SIZE, iv, length, dst, src);
}

static inline void authcat_aes256_cbc_encrypt(
    const struct aes256_ctx *ctx, uint8_t *iv, size_t length, uint8_t *dst, const uint8_t *src) {
    nettle_cbc_encrypt(ctx, (nettle_cipher_func *)nettle_aes256_encrypt, AES_BLOCK_SIZE, iv, length, dst, src);
}
