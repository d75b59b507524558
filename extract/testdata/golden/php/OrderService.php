<?php

declare(strict_types=1);

namespace App\Billing;

use App\Models\Order;
use App\Models\{Customer, LineItem as Line};
use App\Contracts\Repository as Repo, Psr\Log\LoggerInterface;
use function App\Support\money_format;
use const App\Support\DEFAULT_CURRENCY;
use Exception;

require_once __DIR__ . '/helpers.php';
include 'config/billing.php';

/**
 * Marks things that can be priced.
 */
interface Priceable extends \Countable
{
    public function total(): int;
}

trait Loggable
{
    protected ?LoggerInterface $logger = null;

    // Logs through the attached logger, if any.
    protected function log(string $msg, array $ctx = []): void
    {
        $this->logger?->info($msg, $ctx);
    }
}

enum Status: string implements \JsonSerializable
{
    case Pending = 'pending';
    case Paid = 'paid';

    public function label(): string
    {
        return ucfirst($this->value);
    }

    public function jsonSerialize(): mixed { return $this->label(); }
}

/**
 * Computes and charges orders.
 *
 * @template T of Order
 * @implements Priceable<T>
 */
#[Service(name: "billing.orders")]
final class OrderService extends BaseService implements Priceable, \Stringable
{
    use Loggable;

    private const TAX = 20;
    public static int $instances = 0;

    /** @param Repo<Order> $orders */
    public function __construct(
        private readonly Repo $orders,
        LoggerInterface $logger,
    ) {
        parent::__construct();
        $this->logger = $logger;
        self::$instances++;
    }

    /**
     * Creates a service with the default repository.
     */
    public static function create(): static
    {
        return new static(Repo::default(), new \App\Log\NullLogger());
    }

    #[Pure]
    public function total(): int
    {
        $sum = array_reduce(
            $this->orders->all(),
            fn(int $carry, Order $o): int => $carry + $o->amount(),
            0,
        );
        return static::withTax($sum);
    }

    public function charge(Order $order, Customer $who): Status
    {
        try {
            $lines = array_map(function (Line $l) use ($who) {
                return $who->discount($l->price());
            }, $order->lines());
            $this->log('charged', ['lines' => count($lines)]);
            return Status::Paid;
        } catch (Exception $e) {
            $this->fail($e);
            throw new ChargeFailed($e->getMessage(), previous: $e);
        }
    }

    protected static function withTax(int $amount): int
    {
        return intdiv($amount * (100 + self::TAX), 100);
    }

    private function fail(\Throwable $e): void
    {
        $this->log($e->getMessage());
        $handler = new class($e) {
            public function __construct(private \Throwable $e) {}
            public function report(): void { error_log((string) $this->e); }
        };
        $handler->report();
    }

    public function count(): int { return \count($this->orders->all()); }

    function __toString(): string
    {
        return money_format($this->total(), DEFAULT_CURRENCY);
    }
}

# A shell-style comment documents this one.
function format_total(OrderService $svc): string
{
    return sprintf('%s %d', DEFAULT_CURRENCY, $svc->total());
}

$svc = OrderService::create();
echo format_total($svc);
