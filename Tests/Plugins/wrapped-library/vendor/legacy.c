/* Stands for a wrapped library's own source: built as it is (no -Wall -Werror, its own standard), and
 * with globals whose common names must not leave the plugin. */
int hash(const char *s)
{
    int h = 0, unused;
    while (*s) h = h * 31 + *s++;
    return h;
}

int calls = 0;
